import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsJson, rowRecord, rowValues, sql, sqlForOneOrMany, type RowShape } from './statement.ts';

/** The records as objects, stringified whole: what recordsJson must write. */
const asObjects = (rows: ReadonlyArray<readonly unknown[]>) =>
  JSON.stringify(
    rows.map((values, i) => Object.fromEntries([['n', i + 1], ...values.map((v, k) => [`p${k + 1}`, v])])),
  );

const value = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'binary' }),
  fc.date({ noInvalidDate: true }),
  fc.constant(undefined),
  fc.boolean(),
  fc.double(),
);

describe('recordsJson', () => {
  it('writes the records JSON.stringify would write, for any values', () => {
    fc.assert(
      fc.property(fc.array(fc.array(value, { maxLength: 12 }), { maxLength: 6 }), (rows) => {
        expect(recordsJson(rows)).toBe(asObjects(rows));
      }),
    );
  });

  it('numbers the records from 1 and leaves out undefined values', () => {
    expect(recordsJson([['a', undefined, null], [new Date(0)]])).toBe(
      '[{"n":1,"p1":"a","p3":null},{"n":2,"p1":"1970-01-01T00:00:00.000Z"}]',
    );
    expect(recordsJson([])).toBe('[]');
  });
});

describe('sql: parameters named where they are written', () => {
  it('numbers each name once, in the order first written, and takes a record in that order', () => {
    const s = sql<'agent' | 'key' | 'hours'>(
      (p) =>
        `SELECT ${p('key', 'text')}, ${p('agent', 'uuid')} WHERE ${p('key', 'text')} > ${p('hours', 'integer')}`,
    );
    expect(s.text).toBe('SELECT $1::text, $2::uuid WHERE $1::text > $3::integer');
    expect(s.names).toEqual(['key', 'agent', 'hours']);
    expect(s.values({ hours: 3, agent: 'a', key: 'k' })).toEqual(['k', 'a', 3]);
    expect(s.values({ agent: 'a' })).toEqual([null, 'a', null]);
  });

  it('writes a row shape with named, prefixed parameters and its value expressions', () => {
    const shape: RowShape = {
      table: 't',
      columns: [
        { name: 'id', type: 'uuid' },
        { name: 'at', type: 'integer', value: 'now() + make_interval(hours => $)' },
      ],
    };
    const s = sql((p) => `VALUES (${rowValues(shape, p, 'row.').join(', ')})`);
    expect(s.text).toBe('VALUES ($1::uuid, now() + make_interval(hours => $2::integer))');
    expect(s.values(rowRecord(shape, { id: 'x', at: 2, other: 'ignored' }, 'row.'))).toEqual(['x', 2]);
  });
});

describe('sqlForOneOrMany', () => {
  const forms = sqlForOneOrMany<'a' | 'b'>(
    (p, rows) =>
      `WITH r AS (${rows}), s AS (SELECT r.* FROM r) SELECT r.n, ${p('b', 'int')}, ${p('a', 'text', 's')} FROM r, s`,
  );

  it('numbers the one-row form as sql does, and reads the many-row form from each call`s record by the same numbers', () => {
    expect(forms.one.text).toBe(
      'WITH r AS (SELECT 1 AS n), s AS (SELECT r.* FROM r) SELECT r.n, $1::int, $2::text FROM r, s',
    );
    expect(forms.many.text).toBe(
      'WITH r AS (SELECT * FROM json_to_recordset($1::json) AS r (n integer, p1 text, p2 text)), ' +
        's AS (SELECT r.* FROM r) SELECT r.n, r.p1::int, s.p2::text FROM r, s',
    );
    expect(forms.many.values([forms.one.values({ a: 'x', b: 1 }), forms.one.values({ b: 2 })])).toEqual([
      '[{"n":1,"p1":1,"p2":"x"},{"n":2,"p1":2,"p2":null}]',
    ]);
  });
});
