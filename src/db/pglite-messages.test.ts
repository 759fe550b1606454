import { protocol } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { bindExecuteSync } from './pglite-messages.ts';
import { createPgliteDb } from './pglite.ts';
import { pgliteImage } from '../../test/support/db.ts';

/** What PGlite's own serializer sends for one prepared execution. */
function pglites(statement: string, values: Array<string | null>): Buffer {
  return Buffer.concat([
    protocol.serialize.bind({ statement, values }),
    protocol.serialize.execute({}),
    protocol.serialize.sync(),
  ]);
}

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1_000, maxLength: 5_000 }),
);

describe('one prepared execution on the embedded database', () => {
  it('when any statement name and values (null, empty, accented, emoji, long) are sent, then the bytes are those PGlite writes', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z_0-9]{0,30}$/),
        fc.array(fc.option(text, { nil: null }), { maxLength: 40 }),
        (statement, values) => {
          expect(Buffer.from(bindExecuteSync(statement, values)).equals(pglites(statement, values))).toBe(
            true,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  describe('when a statement runs with such values', () => {
    let db: Database;
    beforeAll(async () => {
      db = await createPgliteDb({ image: pgliteImage() });
    });
    afterAll(() => db.close());

    it('then the database receives each of them whole', async () => {
      const values = ['José Ñúñez', '', null, 'Zoë 👩🏽‍💼 née 李', 'x'.repeat(70_000), '{"a":"ü"}'];
      const { rows } = await db.query<Record<string, string | null>>(
        "SELECT $1::text AS a, $2::text AS b, $3::text AS c, $4::text AS d, length($5::text) AS e, $6::json->>'a' AS f",
        values,
      );
      expect(rows[0]).toEqual({ a: 'José Ñúñez', b: '', c: null, d: 'Zoë 👩🏽‍💼 née 李', e: 70_000, f: 'ü' });
    });
  });
});
