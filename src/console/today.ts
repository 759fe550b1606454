import type { FastifyInstance } from 'fastify';
import { webhookUrl } from '../use-cases/webhook-url.ts';
import { DateTime } from 'luxon';
import { listAgenda } from '../appointments/appointment-queries.ts';
import { readDialQueue } from '../automations/dial-queue.ts';
import { countStepsDue } from '../automations/cadence-view.ts';
import { callBlockOf, callableRows } from '../automations/screen-contact.ts';
import { iso, type Queryable } from '../db/index.ts';
import { returnCandidates } from '../economics/return-candidates.ts';
import { listUnreadConversations } from '../conversations/thread-repository.ts';
import { LIMITS } from '../limits.ts';
import { screenedColumns, type ScreenedRow } from '../screening/screening-sql.ts';
import { registryOf } from '../screening/suppression-repository.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, signedIn } from './context.ts';
import { todayLive, todayPage, type TodayData, type WaitingLead } from './views/today.ts';

/** How far back Listen samples and refused deliveries count as waiting for review. */
const REVIEW_DAYS = 7;

/**
 * New leads nobody has called yet, the one waiting longest first: speed to lead. A lead marked
 * "do not contact", or whose call screening blocked (when its task was made, or now: each is
 * screened again as it is read), waits for nobody.
 */
async function waitingLeads(
  db: Queryable,
  agentId: string,
  limit: number,
  now: Date,
): Promise<WaitingLead[]> {
  const { callable } = await callableRows(
    async (offset, size) =>
      (
        await db.query<
          Omit<WaitingLead, 'created_at'> &
            ScreenedRow & { created_at: Date; fields: Record<string, unknown> }
        >(
          `SELECT l.lead_id, l.name, l.phone, l.created_at, l.fields,
                  ${screenedColumns('l.agent_id', 'l.phone', 'l.email')}
             FROM leads l
            WHERE l.agent_id = $1 AND l.status = 'New'
              AND NOT EXISTS (SELECT FROM lead_history h
                               WHERE h.agent_id = l.agent_id AND h.lead_id = l.lead_id AND h.event = 'call_outcome')
              AND NOT EXISTS (SELECT FROM dial_tasks t
                               WHERE t.agent_id = l.agent_id AND t.lead_id = l.lead_id AND t.status = 'blocked')
            ORDER BY l.created_at, l.lead_id LIMIT $2 OFFSET $3`,
          [agentId, size, offset],
        )
      ).rows,
    (r) => callBlockOf(r, r.fields, now),
    limit,
  );
  return callable.map((r) => ({
    lead_id: r.lead_id,
    name: r.name,
    phone: r.phone,
    created_at: iso(r.created_at),
  }));
}

/** What waits elsewhere: Listen samples and refused deliveries of the last days, failed sends. */
async function waitingCounts(db: Queryable, agentId: string, now: Date) {
  const since = new Date(now.getTime() - REVIEW_DAYS * 86_400_000).toISOString();
  const { rows } = await db.query<{ samples: number; dead: number; texts: number }>(
    `SELECT (SELECT count(*)::int FROM listen_samples WHERE agent_id = $1 AND received_at >= $2) AS samples,
            (SELECT count(*)::int FROM webhook_deliveries WHERE agent_id = $1 AND status = 'dead') AS dead,
            (SELECT count(*)::int FROM sms_messages WHERE agent_id = $1 AND status = 'failed') AS texts`,
    [agentId, since],
  );
  const counts = rows[0] ?? { samples: 0, dead: 0, texts: 0 };
  return { samples: counts.samples, failedDeliveries: counts.dead + counts.texts, reviewDays: REVIEW_DAYS };
}

/** Everything Today shows, read at one instant. */
export async function loadToday(db: Queryable, agent: { agent_id: string; timezone: string }, now: Date) {
  const day = DateTime.fromJSDate(now, { zone: agent.timezone }).startOf('day');
  const endOfDay = day.plus({ days: 1 }).toJSDate();
  const [fresh, { tasks, blocked }, appointments, counts, registry, returns, replies, started, steps] =
    await Promise.all([
      waitingLeads(db, agent.agent_id, LIMITS.listedRows, now),
      readDialQueue(db, agent, now, LIMITS.listedRows, endOfDay),
      listAgenda(db, agent.agent_id, {
        from: day.toUTC().toISO() ?? '',
        to: day.plus({ days: 1 }).toUTC().toISO() ?? '',
      }),
      waitingCounts(db, agent.agent_id, now),
      registryOf(db, agent.agent_id, now),
      returnCandidates(db, agent.agent_id, now, LIMITS.listedRows),
      listUnreadConversations(db, agent.agent_id, LIMITS.listedRows),
      db.query<{ any: boolean }>('SELECT EXISTS (SELECT FROM leads WHERE agent_id = $1) AS any', [
        agent.agent_id,
      ]),
      // Plans whose next cadence step falls due by the end of the agent's day, overdue ones too.
      countStepsDue(db, agent.agent_id, endOfDay),
    ]);
  const due = (at: string) => Date.parse(at) <= now.getTime();
  return {
    fresh,
    callsNow: tasks.filter((t) => due(t.due_at)),
    callsLater: tasks
      .filter((t) => !due(t.due_at) && Date.parse(t.due_at) < endOfDay.getTime())
      .sort((a, b) => Date.parse(a.due_at) - Date.parse(b.due_at)),
    appointments,
    blocked,
    registry,
    returns,
    replies,
    firstLead: started.rows[0]?.any !== true,
    cadenceSteps: steps,
    ...counts,
  };
}

/** Today, the console's first screen: what to do now, and what waits. Its whole body is live. */
export function registerTodayPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  const read = async (me: {
    agent: { agent_id: string; timezone: string; name: string };
  }): Promise<TodayData> => {
    const now = new Date();
    return {
      ...(await loadToday(deps.db, me.agent, now)),
      now: now.toISOString(),
      zone: me.agent.timezone,
      agentName: me.agent.name,
      gatewayUrl: webhookUrl(deps.publicBaseUrl),
    };
  };

  scope.get('/today', async (request, reply) => {
    const me = await signedIn(deps, request);
    return consolePage(reply, me, 'Today', '/console/today', todayPage(await read(me)));
  });

  // Everything the page shows, counts and lists from the one read, polled by the page so new
  // leads and replies join it without a reload and the tiles never disagree with the rows.
  scope.get('/today/live', async (request, reply) => {
    const me = await signedIn(deps, request);
    return reply.type('text/html').send(todayLive(await read(me)).text);
  });
}
