import type { Database, Queryable } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import { LIMITS } from '../limits.ts';
import { getLeadViews } from '../leads/lead-queries.ts';
import { insertDeliveries, type NewDelivery } from './delivery-repository.ts';
import { destinationsFor } from './destination-repository.ts';
import { createConsentChecks } from './consent-repository.ts';
import { addCallTasks, type NewCallTask } from './dial-queue.ts';
import {
  cadencesOfNewLeads,
  enroll,
  enrollment,
  type Enrollment,
  type NewLeadCadence,
} from './cadence-repository.ts';
import { stopCadences } from '../leads/cadence-stop.ts';
import { getFollowUpLeads, type FollowUpLead } from './follow-up-leads.ts';
import { followUpsFor, loadFollowUpAgents, type FollowUpAgent, type FollowUpRequest } from './follow-up.ts';
import { webhookBody, type LeadSnapshot } from './payloads.ts';
import { bookingsOf, insertReminders, remindersOf, type NewReminder } from './reminder-repository.ts';
import { screenContact } from './screen-contact.ts';
import { scheduleTexts, type HandedText, type NewText } from './sms-repository.ts';

// Any constant, with the schema's name: one fan-out at a time per installation (several may share
// one database under different schemas), so messages are handed on in their order.
const FAN_OUT_LOCK = 7_420_003;

/**
 * Deletes the round's messages, each found by its key (agent and message) among those not yet
 * handed on; nothing reads a message once it is handed on (its webhook deliveries carry their own
 * bodies). Marking it dispatched would write a new copy of it, payload and all, and a new index
 * entry, since the index of messages still to hand on names `dispatched_at`. By the message alone,
 * which no index leads with, every round would read the whole outbox. `dispatched_at IS NULL` keeps
 * a message that a process not yet upgraded marks out of every round (docs/decisions/0036).
 */
export const DELETE_HANDED_ON = `DELETE FROM outbox o
 USING unnest($1::uuid[], $2::uuid[]) AS d (agent_id, message_id)
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

/** An outbox message's columns, as `OutboxRow` has them. */
const OUTBOX_COLUMNS = 'agent_id, message_id, topic, lead_id, seq, payload, created_at';

/**
 * The oldest messages not yet handed on, locked for this round, when this transaction takes the
 * fan-out's lock (one statement: the lock is a one-time filter, so a round that does not get it
 * reads and locks nothing).
 */
const NEXT_MESSAGES = `WITH fan_out AS MATERIALIZED (
    SELECT pg_try_advisory_xact_lock($1, hashtext(current_schema())) AS ok)
  SELECT ${OUTBOX_COLUMNS} FROM outbox
   WHERE (SELECT ok FROM fan_out) AND dispatched_at IS NULL
   ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED`;

/** The oldest messages not yet handed on, read without a lock (the embedded database's rounds). */
const NEXT_MESSAGES_UNLOCKED = `SELECT ${OUTBOX_COLUMNS} FROM outbox
   WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1`;

export interface FanOutRound {
  /** How many messages it handed on. */
  dispatched: number;
  /** The texts due at once that it wrote already claimed for this worker (`claim`), in order. */
  texts: HandedText[];
}

/**
 * Hands up to `limit` outbox messages on, oldest first: a webhook delivery per subscribed
 * destination, the call task and the first text, or the new lead's cadence (docs/cadences.md); a
 * booking ends the lead's cadence and plans its reminders (docs/reminders.md). A message is
 * dispatched exactly once — the transaction that creates its deliveries also deletes it, and
 * commits only if it deleted every message it read — and a worker that finds another fanning out
 * goes on to send instead. The round reads and writes for all its messages at once, deciding each
 * in order, and the statements that do not wait on each other's answers are sent together.
 *
 * On PostgreSQL the round is one transaction: it takes the fan-out's lock and locks its messages
 * as it reads them, so rounds of several workers take turns, and few waits lie between its begin
 * and its commit: its statements that do not wait on each other go together. The embedded database is one connection, which a transaction
 * holds until it ends, and each of those waits is a turn of the server's busy event loop that every
 * delivery behind it waited out too; and only one process opens it. There the round reads without
 * a lock or a transaction, deliveries' statements running between its reads, and writes in a
 * transaction whose statements all go at once; a round that finds a message already deleted (one
 * running beside it in the same process) writes nothing.
 *
 * Up to `claim.texts` texts due at once are written already claimed for `claim.leaseMs` and
 * returned with their leads, for this worker's sender: claimed by a statement of its own, a text's
 * row would be written once more and its lead read again.
 */
export async function fanOut(
  db: Database,
  limit: number,
  now: Date,
  claim: { texts: number; leaseMs: number } = { texts: 0, leaseMs: 0 },
): Promise<FanOutRound> {
  const round =
    db.kind === 'pglite'
      ? readRound(db, NEXT_MESSAGES_UNLOCKED, [limit], now).then((read) =>
          read ? db.withTransaction((tx) => writeRound(tx, read, now, claim)) : NOTHING,
        )
      : db.withTransaction(async (tx) => {
          const read = await readRound(tx, NEXT_MESSAGES, [FAN_OUT_LOCK, limit], now);
          return read ? writeRound(tx, read, now, claim) : NOTHING;
        });
  return round.catch((err: unknown) => {
    if (err instanceof HandedOnMeanwhile) return NOTHING;
    throw err;
  });
}

const NOTHING: FanOutRound = { dispatched: 0, texts: [] };

/** Thrown inside a round's transaction, rolling it back, when a message it read was handed on meanwhile. */
class HandedOnMeanwhile extends Error {}

/** What a round read and decided: its messages, their leads, and what to write for them. */
interface ReadRound {
  rows: OutboxRow[];
  leads: Map<string, FollowUpLead>;
  agents: ReadonlyMap<string, FollowUpAgent>;
  deliveries: NewDelivery[];
  tasks: NewCallTask[];
  texts: NewText[];
  enrollments: Enrollment[];
  reminders: NewReminder[];
}

/** The round's messages (`next`, with its parameters) and everything it writes for them; null if none. */
async function readRound(
  q: Queryable,
  next: string,
  params: unknown[],
  now: Date,
): Promise<ReadRound | null> {
  const { rows } = await q.query<OutboxRow>(next, params);
  if (rows.length === 0) return null;
  const events = rows.filter((m) => m.lead_id && LEAD_EVENTS.has(m.topic));
  // A booking's lead and agent are read with the lead events' (a delivery's booking comes with its
  // lead's event): its reminders cost the round no read of their own.
  const bookings = rows.filter((m) => m.lead_id && m.topic === 'appointment.booked');
  const asked = [...events, ...bookings];
  const [leads, destinations, agents, cadences] = await Promise.all([
    getFollowUpLeads(
      q,
      asked.flatMap((m) => (m.lead_id ? [m.lead_id] : [])),
    ),
    destinationsOf(q, rows),
    loadFollowUpAgents(
      q,
      asked.map((m) => m.agent_id),
    ),
    cadencesOfNewLeads(q, events.flatMap(newLeadOf)),
  ]);
  // The whole lead only for the messages a webhook goes out for, read beside the follow-ups' own
  // questions so it adds no wait: a round without webhooks reads no lead.
  const [views, { tasks, texts, enrollments }] = await Promise.all([
    getLeadViews(
      q,
      rows.flatMap((m) => (m.lead_id && webhooksOf(m, destinations).length > 0 ? [m.lead_id] : [])),
    ),
    followUp(q, events, leads, agents, cadences, now),
  ]);
  const leadOf = (m: OutboxRow) =>
    m.lead_id ? (views.get(m.lead_id) as LeadSnapshot | undefined) : undefined;
  const deliveries = webhookDeliveries(rows, destinations, leadOf);
  const reminders = remindersOf(bookingsOf(bookings, leads, agents), now);
  return { rows, leads, agents, deliveries, tasks, texts, enrollments, reminders };
}

/** Writes a round's decisions and deletes its messages, all its statements sent at once. */
async function writeRound(
  tx: Queryable,
  { rows, leads, agents, deliveries, tasks, texts, enrollments, reminders }: ReadRound,
  now: Date,
  claim: { texts: number; leaseMs: number },
): Promise<FanOutRound> {
  // Sent in this order and run in it: the consent checks block the call tasks made before them.
  const created = rows.flatMap((m) =>
    m.topic === 'lead.created' && m.lead_id ? [{ agent_id: m.agent_id, lead_id: m.lead_id }] : [],
  );
  // An appointment booked, whoever booked it, ends the lead's cadence.
  const booked = rows.flatMap((m) =>
    m.topic === 'appointment.booked' && m.lead_id ? [{ agent_id: m.agent_id, lead_id: m.lead_id }] : [],
  );
  const [, , written, removed] = await Promise.all([
    insertDeliveries(tx, deliveries),
    addCallTasks(tx, tasks),
    scheduleTexts(tx, claimDue(texts, now, claim)),
    tx.query(DELETE_HANDED_ON, [rows.map((m) => m.agent_id), rows.map((m) => m.message_id)]),
    createConsentChecks(tx, created, now, LIMITS.consentCheckDeadlineMs),
    enroll(tx, enrollments),
    stopCadences(tx, booked, 'appointment', now),
    insertReminders(tx, reminders),
  ]);
  if (removed.rowCount !== rows.length)
    throw new HandedOnMeanwhile('a message of the round was handed on meanwhile');
  return { dispatched: rows.length, texts: handed(written, leads, agents) };
}

/** The first `claim.texts` texts due by `now`, claimed until `now` + `claim.leaseMs`. */
function claimDue(
  texts: readonly NewText[],
  now: Date,
  claim: { texts: number; leaseMs: number },
): NewText[] {
  let room = claim.texts;
  const lease_until = new Date(now.getTime() + claim.leaseMs);
  return texts.map((t) => {
    if (room <= 0 || t.send_at.getTime() > now.getTime()) return t;
    room--;
    return { ...t, lease_until };
  });
}

/** The texts written claimed, as the sender takes them. */
function handed(
  written: ReadonlyArray<NewText & { sms_id: string }>,
  leads: ReadonlyMap<string, FollowUpLead>,
  agents: ReadonlyMap<string, FollowUpAgent>,
): HandedText[] {
  return written.flatMap((t) => {
    const lead = leads.get(t.lead_id);
    const agent = agents.get(t.agent_id);
    if (!t.lease_until || !lead || !agent) return [];
    const { agent_id, sms_id, lead_id, to_phone, body, lease_until } = t;
    return [
      {
        agent_id,
        sms_id,
        lead_id,
        to_phone,
        body,
        attempts: 1,
        agent_timezone: agent.timezone,
        sms_from: agent.sms_from,
        lease_until,
        lead,
      },
    ];
  });
}

/** The topics whose lead gets speed to lead's call task and text. */
const LEAD_EVENTS = new Set(['lead.created', 'lead.updated']);

type Destinations = Awaited<ReturnType<typeof destinationsFor>>;

const sourceOf = (m: OutboxRow) => (typeof m.payload.source_id === 'string' ? m.payload.source_id : null);
const destinationKey = (m: OutboxRow, sourceId: string) => `${sourceId} ${m.topic}`;

/** The destinations a message goes to: its source's that take its topic. */
function webhooksOf(m: OutboxRow, destinations: ReadonlyMap<string, Destinations>): Destinations {
  const sourceId = sourceOf(m);
  return (sourceId && destinations.get(destinationKey(m, sourceId))) || [];
}

/** The destinations each message's source has for its topic, by destinationKey, asked all at once. */
async function destinationsOf(
  tx: Queryable,
  messages: readonly OutboxRow[],
): Promise<Map<string, Destinations>> {
  const asks = new Map<string, Promise<Destinations>>();
  for (const m of messages) {
    const sourceId = sourceOf(m);
    const key = sourceId && destinationKey(m, sourceId);
    if (key && !asks.has(key)) asks.set(key, destinationsFor(tx, sourceId, m.topic));
  }
  const keys = [...asks.keys()];
  const answers = await Promise.all(asks.values());
  return new Map(keys.map((key, i) => [key, answers[i] ?? []]));
}

/** A delivery of each message to each destination of its source that takes its topic. */
function webhookDeliveries(
  messages: readonly OutboxRow[],
  destinations: ReadonlyMap<string, Destinations>,
  leadOf: (m: OutboxRow) => LeadSnapshot | undefined,
): NewDelivery[] {
  const deliveries: NewDelivery[] = [];
  for (const m of messages) {
    const webhooks = webhooksOf(m, destinations);
    if (webhooks.length === 0) continue;
    const event = { topic: m.topic, created_at: new Date(m.created_at).toISOString(), payload: m.payload };
    for (const d of webhooks) {
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

/** A new lead a cadence could follow: a lead's creation by a delivery, not an agent's action. */
function newLeadOf(m: OutboxRow): Array<{ agent_id: string; lead_id: string; source_id: string }> {
  const source_id = sourceOf(m);
  return m.topic === 'lead.created' && m.lead_id && source_id && m.payload.action === undefined
    ? [{ agent_id: m.agent_id, lead_id: m.lead_id, source_id }]
    : [];
}

/**
 * Speed to lead for the lead events among the messages: what call tasks and first texts to add,
 * and the new leads a cadence follows instead (its steps are their plan). A lead that came with an
 * appointment is greeted as ever: the appointment is what a cadence works towards.
 */
async function followUp(
  tx: Queryable,
  events: readonly OutboxRow[],
  leads: ReadonlyMap<string, FollowUpLead>,
  agents: ReadonlyMap<string, FollowUpAgent>,
  cadences: ReadonlyMap<string, NewLeadCadence>,
  now: Date,
): Promise<{ tasks: NewCallTask[]; texts: NewText[]; enrollments: Enrollment[] }> {
  const asked: Array<{ m: OutboxRow; lead: FollowUpLead; request: FollowUpRequest }> = [];
  const enrollments: Enrollment[] = [];
  for (const m of events) {
    const lead = m.lead_id ? leads.get(m.lead_id) : undefined;
    const agent = agents.get(m.agent_id);
    // An agent's own action on a lead (a note, a status) is news for the CRM, not a new lead to greet.
    if (!lead || !agent || m.payload.action !== undefined) continue;
    const cadence = m.topic === 'lead.created' ? cadences.get(lead.lead_id) : undefined;
    if (cadence && lead.status === 'New') {
      enrollments.push(enrollment(m.agent_id, lead, agent.timezone, cadence, now));
      continue;
    }
    const scheduled_at = typeof m.payload.scheduled_at === 'string' ? m.payload.scheduled_at : null;
    asked.push({ m, lead, request: { agent_id: m.agent_id, agent, topic: m.topic, lead, scheduled_at } });
  }
  // Screened now, not by what the lead's intake found: a number added to a list since counts.
  const [plans, decisions] = await Promise.all([
    followUpsFor(
      tx,
      asked.map((a) => a.request),
      now,
    ),
    screenContact(
      tx,
      asked.map((a) => a.lead),
      now,
    ),
  ]);
  const tasks: NewCallTask[] = [];
  const texts: NewText[] = [];
  asked.forEach(({ m, lead }, i) => {
    const plan = plans[i];
    const decision = decisions[i];
    if (!plan || !decision) return;
    if (plan.callTask) {
      const task = { agent_id: m.agent_id, lead_id: lead.lead_id, message_id: m.message_id };
      tasks.push({ ...task, blocked_reason: decision.call });
    }
    if (plan.phone && 'send_at' in plan.text && decision.text === null) {
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
  return { tasks, texts, enrollments };
}
