import type { QueryResult, Queryable } from './database.ts';

/**
 * SQL whose parameters are named where they are written: `p('agent_id', 'uuid')` in the text, a
 * record `{agent_id: …}` when it runs. The builder numbers the parameters in the order they first
 * appear, so no statement counts its parameters itself, and a parameter used twice is one.
 */
export type Param<N extends string = string> = (name: N, type: string) => string;

export type Values<N extends string> = Partial<Record<N, unknown>>;

export interface Statement<N extends string = string> {
  readonly text: string;
  /** The parameters' names, in their numbers' order. */
  readonly names: readonly N[];
  /** A record's values in the parameters' order; a name the record lacks is null. */
  values(record: Values<N>): unknown[];
}

export function sql<N extends string>(build: (p: Param<N>) => string): Statement<N> {
  const names: N[] = [];
  const text = build((name, type) => `$${numbered(names, name)}::${type}`);
  return { text, names, values: (record) => names.map((name) => record[name] ?? null) };
}

/** Runs a statement with a record of its parameters. */
export function run<R, N extends string>(
  q: Queryable,
  statement: Statement<N>,
  record: Values<N>,
): Promise<QueryResult<R>> {
  return q.query<R>(statement.text, statement.values(record));
}

/**
 * How a statement written for one call or for many reads a parameter: beside `alias` (the rows a
 * sub-statement reads) in the many-row form, as `$n` in the one-row form.
 */
export type RowParam<N extends string = string> = (name: N, type: string, alias?: string) => string;

/**
 * One statement in two forms: `one`, its parameters `$1`, `$2` …; and `many`, for several calls at
 * once, each call a JSON record (`{n, p1, p2 …}`, numbered from 1) of its one parameter `$1`, read
 * by `json_to_recordset` and answering a row per call by its `n`. `build` gets how a parameter is
 * read and `rows`, the SQL of the calls' rows (alias `r`): one row `n = 1` in the one-row form.
 */
export interface TwoForms<N extends string = string> {
  one: Statement<N>;
  /** Each call's parameters in the one-row form's order (`one.values`, or filled by `slots`). */
  many: { text: string; values(calls: ReadonlyArray<readonly unknown[]>): unknown[] };
}

export function sqlForOneOrMany<N extends string>(
  build: (p: RowParam<N>, rows: string) => string,
): TwoForms<N> {
  const one = sql<N>((p) => build((name, type) => p(name, type), 'SELECT 1 AS n'));
  const names = one.names;
  const rows = `SELECT * FROM json_to_recordset($1::json) AS r (${recordColumns(names.length)})`;
  const text = build((name, type, alias = 'r') => {
    const at = names.indexOf(name);
    if (at < 0) throw new Error(`parameter ${name} is not in the one-row form`);
    return `${alias}.p${at + 1}::${type}`;
  }, rows);
  return { one, many: { text, values: (calls) => [recordsJson(calls)] } };
}

/**
 * Where each named parameter goes among a statement's, found once: a statement on every
 * delivery's path fills its parameters by position (`params[slot] = value`) instead of building a
 * record of dozens of names for each call.
 */
export function slots<N extends string>(statement: Statement<N>, names: readonly N[]): number[] {
  return names.map((name) => {
    const at = statement.names.indexOf(name);
    if (at < 0) throw new Error(`the statement has no parameter ${name}`);
    return at;
  });
}

/** The slots of a row shape's columns, named with `prefix` (`rowValues`). */
export function rowSlots(statement: Statement, shape: RowShape, prefix = ''): number[] {
  return slots(
    statement,
    shape.columns.map((c) => `${prefix}${c.name}`),
  );
}

/** Writes a row's values, by column, into `params` at the row shape's slots. */
export function fillRow(
  params: unknown[],
  at: readonly number[],
  shape: RowShape,
  row: Record<string, unknown>,
): void {
  shape.columns.forEach((c, i) => {
    params[at[i] ?? -1] = row[c.name] ?? null;
  });
}

function numbered<N>(names: N[], name: N): number {
  const at = names.indexOf(name);
  return at >= 0 ? at + 1 : names.push(name);
}

/**
 * Rows of parameters as the JSON records the many-row form reads: each `{n, p1, p2, …}`, numbered
 * from 1, its values as given (read back as text: `recordColumns`), written as JSON.stringify would
 * write the records (a value it leaves out, `undefined`, is left out), value by value rather than
 * through an object per row, on the path of every delivery.
 */
export function recordsJson(rows: ReadonlyArray<readonly unknown[]>): string {
  let out = '[';
  for (let i = 0; i < rows.length; i++) {
    const values = rows[i] ?? [];
    out += `${i === 0 ? '' : ','}{"n":${i + 1}`;
    for (let k = 0; k < values.length; k++) {
      const value = JSON.stringify(values[k]) as string | undefined;
      if (value !== undefined) out += recordKey(k) + value;
    }
    out += '}';
  }
  return `${out}]`;
}

const RECORD_KEYS: string[] = [];
/** `,"p3":` for parameter index 2, made once. */
const recordKey = (k: number) => (RECORD_KEYS[k] ??= `,"p${k + 1}":`);

/** The column list of `recordsJson`'s records with `count` parameters: `n integer, p1 text, …`. */
function recordColumns(count: number): string {
  return ['n integer', ...Array.from({ length: count }, (_, k) => `p${k + 1} text`)].join(', ');
}

/**
 * The shape of a row a repository inserts: its table and columns, each with its SQL type. The
 * repository's INSERT and any statement that writes the same row among others (the gateway's
 * one-statement new contact) are made from it, so the two can never disagree.
 */
export interface RowShape {
  table: string;
  columns: ReadonlyArray<{
    name: string;
    type: string;
    /** The SQL the parameter goes through, `$` standing for it (default: the parameter itself). */
    value?: string;
  }>;
}

/** The row's value expressions, each column's parameter named `prefix` + the column's name. */
export function rowValues(shape: RowShape, p: Param, prefix = ''): string[] {
  return shape.columns.map((c) => {
    const param = p(`${prefix}${c.name}`, c.type);
    return c.value ? c.value.replaceAll('$', () => param) : param;
  });
}

/** `column = value, …` for an UPDATE's SET list. */
export function setList(shape: RowShape, p: Param, prefix = ''): string {
  const values = rowValues(shape, p, prefix);
  return shape.columns.map((c, i) => `${c.name} = ${values[i]}`).join(', ');
}

export function columnList(shape: RowShape): string {
  return shape.columns.map((c) => c.name).join(', ');
}

/** `INSERT INTO table (columns) VALUES (…)`: the row's own statement; its record is the row's. */
export function insertRow(shape: RowShape): Statement {
  return sql(
    (p) => `INSERT INTO ${shape.table} (${columnList(shape)}) VALUES (${rowValues(shape, p).join(', ')})`,
  );
}

/** A row's values as the record of parameters `rowValues` named with `prefix`. */
export function rowRecord(
  shape: RowShape,
  row: Record<string, unknown>,
  prefix = '',
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const c of shape.columns) record[`${prefix}${c.name}`] = row[c.name] ?? null;
  return record;
}
