import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsJson } from './row-shape.ts';

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
