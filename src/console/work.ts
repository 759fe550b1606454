import type { FastifyInstance } from 'fastify';
import { readDialQueue } from '../automations/dial-queue.ts';
import { actOnLead } from '../use-cases/lead-actions.ts';
import { retryText } from '../automations/sms-repository.ts';
import { CALL_OUTCOMES, type CallOutcome } from '../leads/lead-status.ts';
import {
  DELIVERY_STATUSES,
  listDeliveries,
  retryDelivery,
  type DeliveryStatus,
} from '../automations/delivery-repository.ts';
import { LIMITS } from '../limits.ts';
import { isUuid } from '../sources/tokens.ts';
import type { Queryable } from '../db/index.ts';
import { iso } from '../db/index.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, csrfToken, signedIn } from './context.ts';
import { queryValue } from './query.ts';
import { deliveriesPage, type TextRow } from './views/deliveries.ts';
import { dialQueuePage, SOLD, type DialQueueData } from './views/dial-queue.ts';

/** The agent's newest texts, whatever became of them. */
async function recentTexts(db: Queryable, agentId: string, limit: number): Promise<TextRow[]> {
  const { rows } = await db.query<
    Omit<TextRow, 'send_at' | 'sent_at'> & { send_at: Date; sent_at: Date | null }
  >(
    `SELECT sms_id, lead_id, to_phone, status, provider, attempts, send_at, sent_at,
            CASE WHEN status = 'sent' AND provider_status IS NOT NULL THEN provider_status END AS provider_status,
            COALESCE(provider_error, error) AS error FROM sms_messages
      WHERE agent_id = $1 ORDER BY created_at DESC LIMIT $2`,
    [agentId, limit],
  );
  return rows.map((r) => ({ ...r, send_at: iso(r.send_at), sent_at: r.sent_at ? iso(r.sent_at) : null }));
}

/** The call a dial-queue form just saved, from the query it redirected with; `missing`: none chosen. */
async function savedCall(db: Queryable, agentId: string, query: unknown): Promise<DialQueueData['saved']> {
  const outcome = queryValue(query, 'saved');
  if (outcome === 'none') return 'missing';
  const leadId = queryValue(query, 'lead');
  if (!outcome || !(CALL_OUTCOMES as readonly string[]).includes(outcome) || !leadId || !isUuid(leadId))
    return undefined;
  const { rows } = await db.query<{ name: string; status: string }>(
    'SELECT name, status FROM leads WHERE agent_id = $1 AND lead_id = $2',
    [agentId, leadId],
  );
  const lead = rows[0];
  return lead ? { name: lead.name, status: lead.status, outcome: outcome as CallOutcome } : undefined;
}

/** The dial queue and the deliveries: the follow-up work, and what became of it. */
export function registerWorkPages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const post = { preHandler: scope.csrfProtection };

  scope.get('/dial-queue', async (request, reply) => {
    const me = await signedIn(deps, request);
    const at = new Date();
    const { tasks, blocked } = await readDialQueue(deps.db, me.agent, at, LIMITS.listedRows);
    const saved = await savedCall(deps.db, me.agent.agent_id, request.query);
    const body = dialQueuePage({
      tasks,
      blocked,
      now: at.toISOString(),
      zone: me.agent.timezone,
      csrf: csrfToken(reply),
      ...(saved ? { saved } : {}),
    });
    return consolePage(reply, me, 'Dial queue', '/console/dial-queue', body);
  });

  // The same operation as the admin API's (actOnLead). A form that names no open task of the
  // agent's changes nothing; one without an outcome says so.
  scope.post<{ Params: { task_id: string } }>(
    '/dial-queue/:task_id/outcome',
    post,
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const chosen = (request.body as Record<string, unknown> | undefined)?.outcome;
      const id = request.params.task_id;
      const sold = chosen === SOLD;
      const outcome = sold ? 'reached' : chosen;
      if (typeof outcome !== 'string' || !(CALL_OUTCOMES as readonly string[]).includes(outcome))
        return reply.redirect('/console/dial-queue?saved=none', 303);
      const done = isUuid(id)
        ? await actOnLead(
            deps.db,
            { task_id: id, agent_id: me.agent.agent_id },
            { kind: 'call_outcome', outcome: outcome as CallOutcome },
            new Date(),
          )
        : null;
      if (sold && done?.ok) return reply.redirect(`/console/leads/${done.lead_id}?done=sell#sale`, 303);
      const query = done?.ok ? `?saved=${outcome}&lead=${done.lead_id}` : '';
      return reply.redirect(`/console/dial-queue${query}`, 303);
    },
  );

  scope.get('/deliveries', async (request, reply) => {
    const me = await signedIn(deps, request);
    const wanted = queryValue(request.query, 'status') ?? '';
    const status = (DELIVERY_STATUSES as readonly string[]).includes(wanted)
      ? (wanted as DeliveryStatus)
      : undefined;
    const [deliveries, texts] = await Promise.all([
      listDeliveries(deps.db, me.agent.agent_id, status, LIMITS.listedRows),
      recentTexts(deps.db, me.agent.agent_id, 50),
    ]);
    const body = deliveriesPage({
      deliveries,
      texts,
      status,
      zone: me.agent.timezone,
      csrf: csrfToken(reply),
    });
    return consolePage(reply, me, 'Deliveries', '/console/deliveries', body);
  });

  scope.post<{ Params: { sms_id: string } }>('/texts/:sms_id/retry', post, async (request, reply) => {
    const me = await signedIn(deps, request);
    const id = request.params.sms_id;
    if (isUuid(id)) await retryText(deps.db, me.agent.agent_id, id);
    return reply.redirect('/console/deliveries', 303);
  });

  scope.post<{ Params: { delivery_id: string } }>(
    '/deliveries/:delivery_id/retry',
    post,
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const id = request.params.delivery_id;
      if (isUuid(id)) await retryDelivery(deps.db, id, me.agent.agent_id);
      return reply.redirect('/console/deliveries', 303);
    },
  );
}
