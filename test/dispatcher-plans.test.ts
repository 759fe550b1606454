import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_HANDED_ON } from '../src/automations/fan-out.ts';
import { SENT_TEXTS, TEXTS_SINCE } from '../src/automations/sms-repository.ts';
import { HISTORY_ROW } from '../src/leads/lead-repository.ts';
import { createTestDb, type TestDb } from './support/db.ts';
import { seqScans as plannedSeqScans } from './support/plans.ts';

/**
 * The dispatcher's round must cost what the round holds, not what the tables hold: the outbox and
 * the texts only grow. Each statement's plan, on tables with thousands of old rows, reads them by
 * index; a whole-table scan (as marking messages by their id alone did) fails it.
 */
let t: TestDb;
const agent = randomUUID();
const OLD = 5_000;
const ROUND = 200;

beforeAll(async () => {
  t = await createTestDb();
  // The statistics are taken early, as they lag behind a busy table between upkeep runs.
  await t.db.query(
    `INSERT INTO outbox (agent_id, message_id, topic, payload, dispatched_at)
     SELECT $1, gen_random_uuid(), 'lead.created', '{}', now() FROM generate_series(1, 50)`,
    [agent],
  );
  await t.db.query('ANALYZE outbox');
  await t.db.query('ANALYZE sms_messages');
  await t.db.query(
    `INSERT INTO outbox (agent_id, message_id, topic, payload, dispatched_at)
     SELECT $1, gen_random_uuid(), 'lead.created', '{}', CASE WHEN i <= $2 THEN now() END
       FROM generate_series(1, $3::int) AS i`,
    [agent, OLD - 50, OLD - 50 + ROUND],
  );
  await t.db.query(
    `INSERT INTO sms_messages (agent_id, sms_id, lead_id, message_id, to_phone, body, send_at, status)
     SELECT $1, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), '+1512555' || lpad(i::text, 4, '0'),
            'Hi', now(), 'sent'
       FROM generate_series(1, $2::int) AS i`,
    [agent, OLD],
  );
});
afterAll(() => t.cleanup());

const seqScans = (sql: string, params: unknown[]) => plannedSeqScans(t.db, sql, params);

describe("the dispatcher's round, with thousands of messages and texts already handed on", () => {
  it('when it deletes the messages it handed on, then it does not read the whole outbox, and deletes only those', async () => {
    const { rows } = await t.db.query<{ message_id: string }>(
      'SELECT message_id FROM outbox WHERE dispatched_at IS NULL ORDER BY seq',
    );
    expect(rows).toHaveLength(ROUND);
    const ids = rows.map((r) => r.message_id);
    expect(await seqScans(DELETE_HANDED_ON, [ids.map(() => agent), ids])).not.toContain('outbox');
    const { rowCount } = await t.db.query(DELETE_HANDED_ON, [ids.map(() => agent), ids]);
    expect(rowCount).toBe(ROUND);
    const { rows: left } = await t.db.query<{ n: number; pending: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE dispatched_at IS NULL)::int AS pending FROM outbox',
    );
    expect(left[0]).toEqual({ n: OLD, pending: 0 });
  });

  it('when the migration to deleting runs, then the messages an earlier version marked go, and none still to hand on', async () => {
    await t.db.query(
      `INSERT INTO outbox (agent_id, message_id, topic, payload) SELECT $1, gen_random_uuid(), 'lead.created', '{}'
         FROM generate_series(1, 3)`,
      [agent],
    );
    await t.db.query(
      readFileSync(new URL('../migrations/0020-outbox-handed-on.sql', import.meta.url), 'utf8'),
    );
    const { rows } = await t.db.query<{ n: number; pending: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE dispatched_at IS NULL)::int AS pending FROM outbox',
    );
    expect(rows[0]).toEqual({ n: 3, pending: 3 });
  });

  it('when it counts the texts each number had today, then it does not read every text of the day', async () => {
    const phones = Array.from({ length: ROUND }, (_, i) => `+1512555${String(i * 7).padStart(4, '0')}`);
    const args = [phones.map(() => agent), phones, new Date(Date.now() - 86_400_000).toISOString()];
    expect(await seqScans(TEXTS_SINCE, args)).not.toContain('sms_messages');
    const { rows } = await t.db.query<{ to_phone: string; n: number }>(TEXTS_SINCE, args);
    expect(rows.length).toBe(
      phones.filter((p) => Number(p.slice(-4)) >= 1 && Number(p.slice(-4)) <= OLD).length,
    );
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });
});

describe('texts the provider took, with thousands of texts already sent', () => {
  it('when they are recorded sent, then the statement does not read every text', async () => {
    const three = <T>(v: T) => [v, v, v];
    const args = SENT_TEXTS.statement.values({
      'key.agent_id': three(agent),
      'key.sms_id': three(randomUUID()),
      attempts: three(1),
      status: three('sent'),
      'also.provider': three('test'),
      ...Object.fromEntries(HISTORY_ROW.columns.map((c) => [`history.${c.name}`, three(null)])),
    });
    expect(await seqScans(SENT_TEXTS.statement.text, args)).not.toContain('sms_messages');
  });
});
