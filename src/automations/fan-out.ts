import type { Database, Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { getLeadViews } from '../leads/lead-queries.ts';
import { insertDeliveries, type NewDelivery } from './delivery-repository.ts';
import { destinationsFor } from './destination-repository.ts';
import { addCallTasks } from './dial-queue.ts';
import { followUpsFor, loadFollowUpAgents, type FollowUpRequest } from './follow-up.ts';
import { webhookBody, type LeadSnapshot } from './payloads.ts';
import { scheduleTexts, type NewText } from './sms-repository.ts';

// Any constant, with the schema's name: one fan-out at a time per installation (several may share
// one database under different schemas), so messages are handed on in their order.
const FAN_OUT_LOCK = 7_420_003;

/**
 * Marks the round's messages dispatched, each found by its key (agent and message) among those not
 * yet dispatched: by the message alone, which no index leads with, every round read the whole
 * outbox, which only grows (11 ms a round at 10,000 messages on the embedded database).
 */
export const MARK_DISPATCHED = `UPDATE outbox o SET dispatched_at = now()
  FROM unnest($1::uuid[], $2::uuid[]) AS d (agent_id, message_id)
 WHERE o.agent_id = d.agent_id AND o.message_id = d.message_id AND o.dispatched_at IS NULL`;

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
 * fanning out goes on to send instead. The round reads and writes for all its messages at once (a
 * handful of statements, however many messages), deciding each in order. Returns how many messages
 * it dispatched.
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
    if (rows.length === 0) return 0;
    const leads = await getLeadViews(
      tx,
      rows.flatMap((m) => (m.lead_id ? [m.lead_id] : [])),
    );
    const leadOf = (m: OutboxRow) =>
      m.lead_id ? (leads.get(m.lead_id) as LeadSnapshot | undefined) : undefined;
    await insertDeliveries(tx, await webhookDeliveries(tx, rows, leadOf));
    await followUp(tx, rows, leadOf, now);
    await tx.query(MARK_DISPATCHED, [rows.map((m) => m.agent_id), rows.map((m) => m.message_id)]);
    return rows.length;
  });
}

/** A delivery of each message to each destination of its source that takes its topic. */
async function webhookDeliveries(
  tx: Queryable,
  messages: readonly OutboxRow[],
  leadOf: (m: OutboxRow) => LeadSnapshot | undefined,
): Promise<NewDelivery[]> {
  const destinations = new Map<string, Awaited<ReturnType<typeof destinationsFor>>>();
  const deliveries: NewDelivery[] = [];
  for (const m of messages) {
    const sourceId = typeof m.payload.source_id === 'string' ? m.payload.source_id : null;
    if (!sourceId) continue;
    const key = `${m.agent_id} ${sourceId} ${m.topic}`;
    if (!destinations.has(key))
      destinations.set(key, await destinationsFor(tx, m.agent_id, sourceId, m.topic));
    const event = { topic: m.topic, created_at: new Date(m.created_at).toISOString(), payload: m.payload };
    for (const d of destinations.get(key) ?? []) {
      deliveries.push({
        agent_id: m.agent_id,
        message_id: m.message_id,
        destination_id: d.destination_id,
        lead_id: m.lead_id,
        seq: Number(m.seq),
        topic: m.topic,
        body: webhookBody(d.kind, event, leadOf(m) ?? null),
      });
    }
  }
  return deliveries;
}

/** Speed to lead for the lead events among the messages: call tasks and first texts. */
async function followUp(
  tx: Queryable,
  messages: readonly OutboxRow[],
  leadOf: (m: OutboxRow) => LeadSnapshot | undefined,
  now: Date,
): Promise<void> {
  const events = messages.filter(
    (m) => leadOf(m) && (m.topic === 'lead.created' || m.topic === 'lead.updated'),
  );
  const agents = await loadFollowUpAgents(
    tx,
    events.map((m) => m.agent_id),
  );
  const asked: Array<{ m: OutboxRow; lead: LeadSnapshot; request: FollowUpRequest }> = [];
  for (const m of events) {
    const lead = leadOf(m);
    const agent = agents.get(m.agent_id);
    if (!lead || !agent) continue;
    const scheduled_at = typeof m.payload.scheduled_at === 'string' ? m.payload.scheduled_at : null;
    asked.push({ m, lead, request: { agent_id: m.agent_id, agent, topic: m.topic, lead, scheduled_at } });
  }
  const plans = await followUpsFor(
    tx,
    asked.map((a) => a.request),
    now,
  );
  const tasks: Array<{ agent_id: string; lead_id: string; message_id: string }> = [];
  const texts: NewText[] = [];
  asked.forEach(({ m, lead }, i) => {
    const plan = plans[i];
    if (!plan) return;
    if (plan.callTask) tasks.push({ agent_id: m.agent_id, lead_id: lead.lead_id, message_id: m.message_id });
    if (plan.phone && 'send_at' in plan.text) {
      texts.push({
        agent_id: m.agent_id,
        lead_id: lead.lead_id,
        message_id: m.message_id,
        to_phone: plan.phone,
        body: plan.text.body,
        send_at: plan.text.send_at,
      });
    }
  });
  await addCallTasks(tx, tasks);
  await scheduleTexts(tx, texts);
}
