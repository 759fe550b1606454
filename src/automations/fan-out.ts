import type { Database, Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { getLeadView } from '../leads/lead-queries.ts';
import { insertDeliveries } from './delivery-repository.ts';
import { destinationsFor } from './destination-repository.ts';
import { addCallTask } from './dial-queue.ts';
import { webhookBody, type LeadSnapshot } from './payloads.ts';
import { followUpFor, loadFollowUpAgent, type FollowUpAgent } from './follow-up.ts';
import { scheduleText } from './sms-repository.ts';

// Any constant, with the schema's name: one fan-out at a time per installation (several may share
// one database under different schemas), so messages are handed on in their order.
const FAN_OUT_LOCK = 7_420_003;

interface OutboxRow {
  agent_id: string;
  message_id: string;
  topic: string;
  lead_id: string | null;
  seq: number;
  payload: JsonObject;
  created_at: Date;
}

/**
 * Hands up to `limit` outbox messages on, oldest first, in one transaction: a webhook delivery per
 * subscribed destination, the call task and the first text. A message is dispatched exactly once —
 * the transaction that creates its deliveries also marks it — and a worker that finds another
 * fanning out goes on to send instead. Returns how many messages it dispatched.
 */
export async function fanOut(db: Database, limit: number, now: Date): Promise<number> {
  return db.withTransaction(async (tx) => {
    const { rows: lock } = await tx.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1, hashtext(current_schema())) AS ok',
      [FAN_OUT_LOCK],
    );
    if (!lock[0]?.ok) return 0;
    const { rows } = await tx.query<OutboxRow>(
      `SELECT agent_id, message_id, topic, lead_id, seq, payload, created_at FROM outbox
        WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    const agents = new Map<string, FollowUpAgent | undefined>();
    for (const message of rows) await dispatch(tx, message, now, agents);
    if (rows.length > 0) {
      await tx.query('UPDATE outbox SET dispatched_at = now() WHERE message_id = ANY($1::uuid[])', [
        rows.map((m) => m.message_id),
      ]);
    }
    return rows.length;
  });
}

async function dispatch(
  tx: Queryable,
  m: OutboxRow,
  now: Date,
  agents: Map<string, FollowUpAgent | undefined>,
): Promise<void> {
  const lead = m.lead_id ? ((await getLeadView(tx, m.lead_id)) as LeadSnapshot | null) : null;
  const sourceId = typeof m.payload.source_id === 'string' ? m.payload.source_id : null;
  if (sourceId) {
    const destinations = await destinationsFor(tx, m.agent_id, sourceId, m.topic);
    const event = { topic: m.topic, created_at: new Date(m.created_at).toISOString(), payload: m.payload };
    await insertDeliveries(
      tx,
      destinations.map((d) => ({
        agent_id: m.agent_id,
        message_id: m.message_id,
        destination_id: d.destination_id,
        lead_id: m.lead_id,
        seq: Number(m.seq),
        topic: m.topic,
        body: webhookBody(d.kind, event, lead),
      })),
    );
  }
  if (lead && (m.topic === 'lead.created' || m.topic === 'lead.updated')) {
    if (!agents.has(m.agent_id)) agents.set(m.agent_id, await loadFollowUpAgent(tx, m.agent_id));
    const agent = agents.get(m.agent_id);
    if (agent) await followUp(tx, m, lead, agent, now);
  }
}

async function followUp(
  tx: Queryable,
  m: OutboxRow,
  lead: LeadSnapshot,
  agent: FollowUpAgent,
  now: Date,
): Promise<void> {
  const plan = await followUpFor(tx, {
    agent_id: m.agent_id,
    agent,
    topic: m.topic,
    lead,
    scheduled_at: typeof m.payload.scheduled_at === 'string' ? m.payload.scheduled_at : null,
    now,
  });
  if (plan.callTask)
    await addCallTask(tx, { agent_id: m.agent_id, lead_id: lead.lead_id, message_id: m.message_id });
  if (plan.phone && 'send_at' in plan.text) {
    await scheduleText(tx, {
      agent_id: m.agent_id,
      lead_id: lead.lead_id,
      message_id: m.message_id,
      to_phone: plan.phone,
      body: plan.text.body,
      send_at: plan.text.send_at,
    });
  }
}
