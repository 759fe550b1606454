import type { FastifyInstance } from 'fastify';
import { queryValue } from './query.ts';
import { listCallTasks, recordCallOutcome } from '../automations/dial-queue.ts';
import { retryText } from '../automations/sms-repository.ts';
import { CALL_OUTCOMES, type CallOutcome } from '../leads/lead-status.ts';
import {
  DELIVERY_STATUSES,
  listDeliveries,
  retryDelivery,
  type DeliveryStatus,
} from '../automations/delivery-repository.ts';
import { LIMITS } from '../config.ts';
import { isUuid } from '../sources/tokens.ts';
import type { Queryable } from '../db/index.ts';
import { iso } from '../db/index.ts';
import { dataTable, options } from './components.ts';
import { html } from './html.ts';
import type { ConsoleDeps } from './deps.ts';
import { clock, when } from './format.ts';
import { consolePage, csrfToken, signedIn } from './context.ts';

/** The agent's newest texts, whatever became of them. */
async function recentTexts(db: Queryable, agentId: string, limit: number) {
  const { rows } = await db.query<{
    sms_id: string;
    lead_id: string;
    to_phone: string;
    status: string;
    attempts: number;
    error: string | null;
    send_at: Date;
    sent_at: Date | null;
  }>(
    `SELECT sms_id, lead_id, to_phone, status, attempts, error, send_at, sent_at FROM sms_messages
      WHERE agent_id = $1 ORDER BY created_at DESC LIMIT $2`,
    [agentId, limit],
  );
  return rows.map((r) => ({ ...r, send_at: iso(r.send_at), sent_at: r.sent_at ? iso(r.sent_at) : null }));
}

const OUTCOME_LABELS: Record<CallOutcome, string> = {
  reached: 'Reached',
  no_answer: 'No answer',
  bad_number: 'Bad number',
  not_interested: 'Not interested',
};

export function registerWorkPages(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get('/dial-queue', async (request, reply) => {
    const me = await signedIn(deps, request);
    const at = new Date();
    const now = at.toISOString();
    const tasks = await listCallTasks(deps.db, me.agent, at, LIMITS.listedRows);
    const csrf = csrfToken(reply);
    return consolePage(
      reply,
      me,
      'Dial queue',
      '/console/dial-queue',
      html`<main>
        <h1>Dial queue</h1>
        <p>
          Who to call now, oldest first, with the prospect’s local time. Outside calling hours (8:00–21:00
          there, or the state’s own rule), wait. After each call, save its outcome: reached makes a new lead
          Contacted; no answer brings the call back in an hour (three tries at most); bad number and not
          interested say so on the lead.
        </p>
        ${
          tasks.length
            ? dataTable(
                ['Lead', 'Phone', 'Their time', 'Calling hours', 'Waiting since', 'Outcome'],
                tasks.map(
                  (t) =>
                    html`<tr>
                      <td><a href="/console/leads/${t.lead_id}">${t.name}</a></td>
                      <td>${t.phone ? html`<a href="tel:+1${t.phone}">${t.phone}</a>` : '—'}</td>
                      <td>${clock(now, t.timezone)} (${t.timezone})</td>
                      <td>
                        ${t.calling_hours_open ? html`<span class="status ok">open: call now</span>` : html`<span class="status bad">closed: wait</span>`}
                      </td>
                      <td>${when(t.created_at, me.agent.timezone)}</td>
                      <td>
                        <form method="post" action="/console/dial-queue/${t.task_id}/outcome" class="inline">
                          <input type="hidden" name="_csrf" value="${csrf}" />
                          <label class="sr-only" for="outcome-${t.task_id}"
                            >Outcome of the call to ${t.name}</label
                          >
                          <select id="outcome-${t.task_id}" name="outcome">
                            ${CALL_OUTCOMES.map((o) => html`<option value="${o}">${OUTCOME_LABELS[o]}</option>`)}
                          </select>
                          <button type="submit">Save</button>
                        </form>
                      </td>
                    </tr>`,
                ),
              )
            : html`<p class="empty">Nobody to call: every new lead with a phone lands here.</p>`
        }
      </main>`,
    );
  });

  scope.post<{ Params: { task_id: string } }>(
    '/dial-queue/:task_id/outcome',
    { preHandler: scope.csrfProtection },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const outcome = (request.body as Record<string, unknown> | undefined)?.outcome;
      const id = request.params.task_id;
      if (
        typeof outcome === 'string' &&
        (CALL_OUTCOMES as readonly string[]).includes(outcome) &&
        isUuid(id)
      ) {
        await recordCallOutcome(deps.db, me.agent.agent_id, id, outcome as CallOutcome, new Date());
      }
      return reply.redirect('/console/dial-queue', 303);
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
    const csrf = csrfToken(reply);
    const zone = me.agent.timezone;
    return consolePage(
      reply,
      me,
      'Deliveries',
      '/console/deliveries',
      html`<main>
        <h1>Deliveries</h1>
        <p>
          Webhooks to your destinations and texts to your leads. Failed webhooks are retried on a schedule;
          after the last try they are dead letters, which you can send again.
        </p>
        <form method="get" action="/console/deliveries" class="filters">
          <label
            >Status
            <select name="status">
              ${options(DELIVERY_STATUSES, status)}
            </select></label
          >
          <button type="submit">Filter</button>
          <a href="/console/deliveries?status=dead">Dead letters</a>
        </form>
        <h2>Webhooks</h2>
        ${
          deliveries.length
            ? dataTable(
                [
                  'Event',
                  'Status',
                  'HTTP',
                  'Error',
                  'Attempts',
                  'Next retry',
                  'Created',
                  html`<span class="sr-only">Action</span>`,
                ],
                deliveries.map(
                  (d) =>
                    html`<tr>
                      <td>
                        ${d.lead_id ? html`<a href="/console/leads/${d.lead_id}">${d.topic}</a>` : d.topic}
                      </td>
                      <td>
                        <span
                          class="status${d.status === 'dead' ? ' bad' : d.status === 'delivered' ? ' ok' : ''}"
                          >${d.status}</span
                        >
                      </td>
                      <td>${d.last_status ?? '—'}</td>
                      <td>${d.last_error ?? '—'}</td>
                      <td>${d.attempts}</td>
                      <td>${d.next_attempt_at ? when(d.next_attempt_at, zone) : '—'}</td>
                      <td>${when(d.created_at, zone)}</td>
                      <td>
                        ${
                          d.status === 'sending'
                            ? ''
                            : html`<form
                                method="post"
                                action="/console/deliveries/${d.delivery_id}/retry"
                                class="inline"
                              >
                                <input type="hidden" name="_csrf" value="${csrf}" /><button type="submit">
                                  Retry now
                                </button>
                              </form>`
                        }
                      </td>
                    </tr>`,
                ),
              )
            : html`<p class="empty">
                No webhook deliveries${status ? ` with status ${status}` : ''}. Add a destination in
                <a href="/console/sources">Sources</a> to send new leads to your CRM.
              </p>`
        }
        <h2>Texts</h2>
        ${
          texts.length
            ? dataTable(
                [
                  'To',
                  'Status',
                  'Error',
                  'Attempts',
                  'Due or sent',
                  html`<span class="sr-only">Action</span>`,
                ],
                texts.map(
                  (t) =>
                    html`<tr>
                      <td><a href="/console/leads/${t.lead_id}">${t.to_phone}</a></td>
                      <td>${t.status}</td>
                      <td>${t.error ?? '—'}</td>
                      <td>${t.attempts}</td>
                      <td>${when(t.sent_at ?? t.send_at, zone)}</td>
                      <td>
                        ${
                          t.status === 'failed'
                            ? html`<form
                                method="post"
                                action="/console/texts/${t.sms_id}/retry"
                                class="inline"
                              >
                                <input type="hidden" name="_csrf" value="${csrf}" /><button type="submit">
                                  Retry now
                                </button>
                              </form>`
                            : ''
                        }
                      </td>
                    </tr>`,
                ),
              )
            : html`<p class="empty">No texts yet: leads who consent to texts get the first one here.</p>`
        }
      </main>`,
    );
  });

  scope.post<{ Params: { sms_id: string } }>(
    '/texts/:sms_id/retry',
    { preHandler: scope.csrfProtection },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const id = request.params.sms_id;
      if (isUuid(id)) await retryText(deps.db, me.agent.agent_id, id);
      return reply.redirect('/console/deliveries', 303);
    },
  );

  scope.post<{ Params: { delivery_id: string } }>(
    '/deliveries/:delivery_id/retry',
    { preHandler: scope.csrfProtection },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const id = request.params.delivery_id;
      if (isUuid(id)) await retryDelivery(deps.db, id, me.agent.agent_id);
      return reply.redirect('/console/deliveries', 303);
    },
  );
}
