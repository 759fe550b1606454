import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { LIMITS } from '../limits.ts';
import type { Database, QueryResult, Queryable } from './database.ts';
import { statementName } from './statement-names.ts';

type Message = Parameters<typeof parse.parseResults>[0][number];

/** A statement prepared once on the embedded database: its parameter types and its result's shape. */
interface Prepared {
  name: string;
  paramTypes: number[];
  /** The RowDescription (or NoData) that Describe gave: what each execution's rows are read by. */
  shape: Message[];
}

/**
 * Where an embedded database lives: in the data directory `dir`; or in memory, started from
 * `image` (a data directory's dump, a tar file made by PGlite's `dumpDataDir`) or, with neither,
 * from a new one (initdb). The in-memory kinds are the tests'.
 */
export interface PglitePlace {
  dir?: string;
  image?: string;
  /** Shared buffers in MB (EMBEDDED_SHARED_BUFFERS_MB); LIMITS.embeddedSharedBuffersMb by default. */
  sharedBuffersMb?: number;
  /** Whether its thread gives the memory it frees back to the system (freed-memory.ts); yes by default. */
  returnsMemory?: boolean | undefined;
}

/**
 * Embedded PostgreSQL (WASM) in the place given (PglitePlace).
 *
 * Parameterized statements run prepared, as on a server (statement-names.ts): PGlite's own `query`
 * parses, plans and describes every statement on every call, which for a delivery's one statement
 * costs several times what executing it does. Here a statement is parsed and described once; each
 * call is one Bind + Execute + Sync, written and read by PGlite's own protocol functions.
 */
export async function createPgliteDb({ dir, image, sharedBuffersMb }: PglitePlace): Promise<Database> {
  if (dir) await initialise(dir);
  const from = dir ? { dataDir: dir } : image ? { loadDataDir: new Blob([readFileSync(image)]) } : {};
  const db = await PGlite.create({ ...from, startParams: startParams(sharedBuffersMb) });
  const prepared = new Map<string, Prepared>();

  const exchange = async (message: Uint8Array, inTransaction: boolean) =>
    (await db.execProtocol(message, { syncToFs: !inTransaction })).messages as Message[];

  const prepare = async (sql: string, name: string, inTransaction: boolean): Promise<Prepared> => {
    const described = await exchange(
      concat([
        protocol.serialize.parse({ name, text: sql, types: [] }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      inTransaction,
    );
    const statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(described),
      shape: described.filter((m) => m.name === 'rowDescription' || m.name === 'noData'),
    };
    prepared.set(sql, statement);
    return statement;
  };

  /** One prepared execution; the caller holds PGlite's query mutex. */
  const execute = async <T>(
    sql: string,
    name: string,
    params: readonly unknown[],
    inTransaction: boolean,
  ) => {
    const statement = prepared.get(sql) ?? (await prepare(sql, name, inTransaction));
    const values = params.map((value, i) => serialize(db, value, statement.paramTypes[i]));
    const messages = await exchange(
      concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      inTransaction,
    );
    const [result] = parse.parseResults([...statement.shape, ...messages], db.parsers);
    return toQueryResult<T>(result ?? { rows: [], fields: [] });
  };

  /** `tx`: the statement is one of the running transaction's (PGlite's Transaction runs it). */
  const run = async <T>(sql: string, params: readonly unknown[] | undefined, tx?: Pick<PGlite, 'query'>) => {
    const name = params && params.length > 0 ? statementName(sql) : undefined;
    if (!name || !params) {
      return toQueryResult<T>(await (tx ?? db).query<T>(sql, params as unknown[] | undefined));
    }
    // Outside a transaction a statement waits for the running one, as PGlite's `query` does.
    return tx
      ? db._runExclusiveQuery(() => execute<T>(sql, name, params, true))
      : db._runExclusiveTransaction(() => db._runExclusiveQuery(() => execute<T>(sql, name, params, false)));
  };

  return {
    kind: 'pglite',
    query: (sql, params) => run(sql, params),
    // PGlite is one connection: `transaction` serialises transactions and holds plain queries
    // until the running transaction ends, so row locks and unique checks behave as on a server.
    withTransaction: (fn) =>
      db.transaction((t) => fn({ query: (sql, params) => run(sql, params, t) } as Queryable)),
    close: () => db.close(),
  };
}

// PGlite's own settings, with shared buffers sized for one agency's database rather than a server's
// (the operating system caches the files beneath them all the same), and ANALYZE sampling a tenth
// of PostgreSQL's default rows a table: every other statement waits while the one connection
// analyzes, and one agency's plans need no finer statistics.
const startParams = (sharedBuffersMb: number = LIMITS.embeddedSharedBuffersMb) => [
  ...PGlite.defaultStartParams,
  '-c',
  `shared_buffers=${sharedBuffersMb}MB`,
  '-c',
  'default_statistics_target=10',
];

/**
 * A new data directory is made by PGlite's initdb, which leaves hundreds of MB of WebAssembly
 * memory that a process never gives back; it runs in a short-lived child process instead, so a server's
 * first start uses no more memory than every later one.
 */
async function initialise(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const script = `import { PGlite } from '@electric-sql/pglite';
    const db = await PGlite.create({ dataDir: process.argv[1] }); await db.close();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dir], {
    cwd: new URL('../..', import.meta.url),
  });
}

/** A parameter as text, the way PGlite's `query` serializes it for the parameter's type. */
function serialize(db: PGlite, value: unknown, type: number | undefined): string | null {
  if (value === null || value === undefined) return null;
  const serializer = type === undefined ? undefined : db.serializers[type];
  return serializer ? (serializer(value) as string) : String(value);
}

function toQueryResult<T>(res: {
  rows: unknown[];
  fields: unknown[];
  affectedRows?: number;
}): QueryResult<T> {
  // PGlite reports affectedRows 0 for a SELECT: a statement that returns rows counts its rows, as
  // pg's rowCount does.
  const rowCount = res.fields.length > 0 ? res.rows.length : (res.affectedRows ?? 0);
  return { rows: res.rows as T[], rowCount };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
