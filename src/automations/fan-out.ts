import type { Database, Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { getLeadView } from '../leads/lead-queries.ts';
import { insertDeliveries } from './delivery-repository.ts';
import { destinationsFor } from './destination-repository.ts';
import { addCallTask } from './dial-queue.ts';
import { leadZone } from './lead-zone.ts';
import { webhookBody, type LeadSnapshot } from './payloads.ts';
import { isOptedOut, scheduleText, textsSince } from './sms-repository.ts';
import { planFollowUp } from './speed-to-lead.ts';

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
    const agents = new Map<string, AgentRow | undefined>();
    for (const message of rows) await dispatch(tx, message, now, agents);
    if (rows.length > 0) {
      await tx.query('UPDATE outbox SET dispatched_at = now() WHERE message_id = ANY($1::uuid[])', [
        rows.map((m) => m.message_id),
      ]);
    }
    return rows.length;
  });
}

interface AgentRow {
  name: string;
  timezone: string;
  sms_template: string | null;
}

async function dispatch(
  tx: Queryable,
  m: OutboxRow,
  now: Date,
  agents: Map<string, AgentRow | undefined>,
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
    if (!agents.has(m.agent_id)) {
      const { rows } = await tx.query<AgentRow>(
        'SELECT name, timezone, sms_template FROM agents WHERE agent_id = $1',
        [m.agent_id],
      );
      agents.set(m.agent_id, rows[0]);
    }
    const agent = agents.get(m.agent_id);
    if (agent) await followUp(tx, m, lead, agent, now);
  }
}

async function followUp(
  tx: Queryable,
  m: OutboxRow,
  lead: LeadSnapshot,
  agent: AgentRow,
  now: Date,
): Promise<void> {
  const phone = typeof lead.phone === 'string' && lead.phone !== '' ? lead.phone : null;
  // Opt-outs and recent texts matter only for a text, which needs consent: not looked up otherwise.
  const textable = phone !== null && lead.sms_consent === true;
  const text = (key: string) => (typeof lead[key] === 'string' ? (lead[key] as string) : null);
  const zone = leadZone(lead, agent.timezone);
  const scheduledAt = typeof m.payload.scheduled_at === 'string' ? m.payload.scheduled_at : null;
  const plan = planFollowUp({
    topic: m.topic,
    status: lead.status,
    phone,
    first_name: text('first_name'),
    state: text('state'),
    zone,
    sms_consent: lead.sms_consent === true,
    appointment: scheduledAt ? { scheduled_at: scheduledAt } : null,
    opted_out: textable ? await isOptedOut(tx, m.agent_id, phone) : false,
    texts_last_24h: textable
      ? await textsSince(tx, m.agent_id, phone, new Date(now.getTime() - 86_400_000))
      : 0,
    agent_name: agent.name,
    template: agent.sms_template,
    now,
  });
  if (plan.callTask)
    await addCallTask(tx, { agent_id: m.agent_id, lead_id: lead.lead_id, message_id: m.message_id });
  if (phone && 'send_at' in plan.text) {
    await scheduleText(tx, {
      agent_id: m.agent_id,
      lead_id: lead.lead_id,
      message_id: m.message_id,
      to_phone: phone,
      body: plan.text.body,
      send_at: plan.text.send_at,
    });
  }
}
