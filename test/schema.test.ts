import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES } from '../src/appointments/transitions.ts';
import { LEAD_STATUSES } from '../src/leads/lead-status.ts';
import { createTestDb, type TestDb } from './support/db.ts';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.cleanup());

/** The values a CHECK (column IN (…)) constraint of `table` allows for `column`. */
async function allowed(table: string, column: string): Promise<string[]> {
  const { rows } = await t.db.query<{ def: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
      WHERE c.conrelid = $1::regclass AND c.contype = 'c'`,
    [table],
  );
  const def = rows
    .map((r) => r.def)
    .find((d) => d.includes(`(${column} = ANY`) || d.includes(`${column} = ANY`));
  if (!def) throw new Error(`no CHECK on ${table}.${column}`);
  return [...def.matchAll(/'([^']+)'::text/g)].map((m) => m[1] ?? '');
}

describe('the status lists: one in the code, the same in the database', () => {
  it('When the schema constrains lead and appointment statuses, then it allows exactly the code’s lists', async () => {
    expect(await allowed('leads', 'status')).toEqual([...LEAD_STATUSES]);
    expect(await allowed('appointments', 'status')).toEqual([...APPOINTMENT_STATUSES]);
  });
});
