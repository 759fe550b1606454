import type { Database } from '../../src/db/index.ts';
import { deliver, type Ack, type SenderStats } from './senders.ts';

/** What the fault suite's cases count once the load is over, from the database and the receiver. */

/** Why each of the chaos steps that failed failed (a kill, a restart, a crash of the database). */
export const failuresOf = (settled: PromiseSettledResult<unknown>[]) =>
  settled.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));

export interface Verdict {
  acked: number;
  lost: number;
  duplicated: number;
  mismatched: number;
}

/** Every 200 has its lead, one lead per contact, and every answer about a contact names that lead. */
export async function verdict(db: Database, agentId: string, acks: Ack[]): Promise<Verdict> {
  const { rows } = await db.query<{ lead_id: string; name: string }>(
    'SELECT lead_id, name FROM leads WHERE agent_id = $1',
    [agentId],
  );
  const leadIds = new Set(rows.map((r) => r.lead_id));
  const perName = new Map<string, number>();
  for (const r of rows) perName.set(r.name, (perName.get(r.name) ?? 0) + 1);
  const idsByContact = new Map<number, Set<string>>();
  for (const ack of acks)
    idsByContact.set(ack.contact, (idsByContact.get(ack.contact) ?? new Set()).add(ack.lead_id));
  return {
    acked: acks.length,
    lost: acks.filter((a) => !leadIds.has(a.lead_id)).length,
    duplicated: [...perName.values()].filter((n) => n > 1).length,
    mismatched: [...idsByContact.values()].filter((ids) => ids.size > 1).length,
  };
}

/** A POST to a process's admin API with the fault suite's key; its JSON, or an error when the status is not `expected`. */
export async function adminPost(
  url: string,
  path: string,
  body: object,
  expected: number,
): Promise<Record<string, string>> {
  const res = await fetch(`${url}/v1/admin${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer fault-suite', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== expected) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

/** The jobs of one load: most contacts once; some to both processes at once with one key; some again later with a new key. */
export function loadJobs(stats: SenderStats, urls: () => string[], token: string, contacts: number) {
  const jobs: Array<() => Promise<unknown>> = [];
  const later: Array<[number, () => Promise<unknown>]> = [];
  for (let c = 1; c <= contacts; c++) {
    const key = `contact-${c}-first`;
    const both = urls().length > 1 && c % 10 === 7;
    jobs.push(() =>
      both
        ? Promise.all([0, 1].map((first) => deliver(stats, urls(), token, c, key, 'first', first)))
        : deliver(stats, urls(), token, c, key, 'first', c),
    );
    if (c % 10 === 9) {
      later.push([c + 150, () => deliver(stats, urls(), token, c, `contact-${c}-again`, 'again', c + 1)]);
    }
  }
  for (const [at, job] of later.reverse()) jobs.splice(Math.min(at, jobs.length), 0, job);
  return jobs;
}

export async function createSource(
  url: string,
  destinationUrl?: string,
): Promise<{ agent_id: string; source_id: string; token: string }> {
  const post = (path: string, body: object) => adminPost(url, path, body, 201);
  const agent = await post('/agents', { name: 'Fault Agent', timezone: 'America/Chicago' });
  const source = await post(`/agents/${agent.agent_id}/sources`, { name: 'Fault Source' });
  if (destinationUrl)
    await post(`/sources/${source.source_id}/destinations`, { kind: 'partner_sync', url: destinationUrl });
  return { agent_id: agent.agent_id ?? '', source_id: source.source_id ?? '', token: source.token ?? '' };
}

export interface EventVerdict {
  events: number;
  undelivered: number;
  repeats: number;
  outOfOrder: number;
  withoutCreated: number;
  notHandedOn: number;
}

/**
 * Waits (up to `timeoutMs`) until every outbox message of the agent is handed on and the receiver
 * got every event, then: how many never arrived, how many arrived more than once (allowed: at least
 * once), how many leads' events first arrived out of their order, how many leads have no
 * `lead.created` event, and how many messages were still not handed on. A message is deleted as it
 * is handed on, in the transaction that writes its webhook delivery (one destination: one delivery
 * a message, with its id, lead and order), so the events are read from the deliveries, and a lead
 * without its `lead.created` delivery is an event lost before it was handed on.
 */
export async function eventVerdict(
  db: Database,
  agentId: string,
  received: () => Array<{ headers: Record<string, unknown> }>,
  timeoutMs: number,
): Promise<EventVerdict> {
  const deadline = Date.now() + timeoutMs;
  const pending = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE agent_id = $1', [agentId]))
      .rows[0]?.n ?? 0;
  while ((await pending()) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 250));
  const notHandedOn = await pending();
  const { rows } = await db.query<{ message_id: string; lead_id: string; seq: string }>(
    'SELECT message_id, lead_id, seq FROM webhook_deliveries WHERE agent_id = $1',
    [agentId],
  );
  const { rows: uncreated } = await db.query(
    `SELECT 1 FROM leads l WHERE l.agent_id = $1 AND NOT EXISTS (
       SELECT 1 FROM webhook_deliveries d WHERE d.agent_id = l.agent_id AND d.lead_id = l.lead_id AND d.topic = 'lead.created')`,
    [agentId],
  );
  const ids = () => received().map((r) => String(r.headers['webhook-id']));
  let missing = rows.length;
  for (;;) {
    const got = new Set(ids());
    missing = rows.filter((m) => !got.has(m.message_id)).length;
    if (missing === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const all = ids();
  const message = new Map(rows.map((m) => [m.message_id, m]));
  const lastSeq = new Map<string, number>();
  let outOfOrder = 0;
  for (const id of new Set(all)) {
    const m = message.get(id);
    if (!m) continue;
    if (Number(m.seq) < (lastSeq.get(m.lead_id) ?? -1)) outOfOrder++;
    lastSeq.set(m.lead_id, Math.max(Number(m.seq), lastSeq.get(m.lead_id) ?? -1));
  }
  return {
    events: rows.length,
    undelivered: missing,
    repeats: all.length - new Set(all).size,
    outOfOrder,
    withoutCreated: uncreated.length,
    notHandedOn,
  };
}
