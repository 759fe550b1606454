import type { FastifyInstance } from 'fastify';
import { getLeadDetail, type HistoryView } from '../leads/lead-queries.ts';
import { LEAD_FIELDS } from '../ingest/fields.ts';
import { listSources } from '../sources/source-repository.ts';
import { appError } from '../errors.ts';
import { fieldList } from './components.ts';
import { html, jsonBlock } from './html.ts';
import type { ConsoleDeps } from './deps.ts';
import { label, show, when } from './format.ts';
import { consolePage, signedIn } from './context.ts';
import { leadAutomations } from './lead-automations.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One history entry: what happened, from which source, and each field it changed (from → to). */
function historyEntry(h: HistoryView, zone: string, sources: Map<string, string>) {
  const changes =
    h.changes && typeof h.changes === 'object' ? Object.entries(h.changes as Record<string, unknown>) : [];
  const details =
    h.details && typeof h.details === 'object' ? Object.entries(h.details as Record<string, unknown>) : [];
  return html`<li>
    <p>
      <strong>${label(h.event)}</strong> ·
      ${when(h.created_at, zone)}${
        h.source_id ? html` · from ${sources.get(h.source_id) ?? 'a removed source'}` : ''
      }
    </p>
    ${
      changes.length
        ? html`<ul class="changes">
            ${changes.map(([field, change]) => {
              const c = (change ?? {}) as { from?: unknown; to?: unknown };
              return html`<li>${label(field)}: <del>${show(c.from)}</del> → <ins>${show(c.to)}</ins></li>`;
            })}
          </ul>`
        : ''
    }
    ${
      details.length
        ? html`<details>
            <summary>Details</summary>
            ${jsonBlock(h.details)}
          </details>`
        : ''
    }
  </li>`;
}

export function registerLeadPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get<{ Params: { lead_id: string } }>('/leads/:lead_id', async (request, reply) => {
    const me = await signedIn(deps, request);
    const id = request.params.lead_id;
    const lead = UUID.test(id) ? await getLeadDetail(deps.db, id) : null;
    // Another agent's lead is exactly as missing as one that never was.
    if (!lead || lead.agent_id !== me.agent.agent_id) throw appError('LEAD_NOT_FOUND');
    const zone = me.agent.timezone;
    const [sources, automations] = await Promise.all([
      listSources(deps.db, me.agent.agent_id),
      leadAutomations(deps.db, me.agent.agent_id, lead.lead_id),
    ]);
    const names = new Map(sources.map((s) => [s.source_id, s.name]));
    const fields = Object.keys(LEAD_FIELDS).filter(
      (f) => lead[f] !== null && lead[f] !== undefined && f !== 'name',
    );
    const custom = Object.entries((lead.custom_fields ?? {}) as Record<string, unknown>);
    return consolePage(
      reply,
      me,
      lead.name,
      '/console/leads',
      html`<main>
        <p><a href="/console/leads">← Leads</a></p>
        <h1>${lead.name}</h1>
        <p>
          <span class="status">${lead.status}</span> · received ${when(lead.created_at, zone)} from
          ${names.get(lead.source_id) ?? 'a removed source'} · updated ${when(lead.updated_at, zone)}
        </p>
        <section aria-labelledby="fields-h">
          <h2 id="fields-h">Fields</h2>
          ${fieldList(fields.map((f) => [label(f), show(lead[f])] as const))}
        </section>
        <section aria-labelledby="custom-h">
          <h2 id="custom-h">Custom fields</h2>
          ${
            custom.length
              ? fieldList(custom.map(([k, v]) => [k, show(v)] as const))
              : html`<p class="empty">None: every field the sender sent had a place.</p>`
          }
        </section>
        <section aria-labelledby="consent-h">
          <h2 id="consent-h">Consent evidence</h2>
          ${lead.consent ? jsonBlock(lead.consent) : html`<p class="empty">The sender sent no consent evidence.</p>`}
        </section>
        <section aria-labelledby="appt-h">
          <h2 id="appt-h">Appointments</h2>
          ${
            lead.appointments.length
              ? html`<ul>
                  ${lead.appointments.map(
                    (a) =>
                      html`<li>
                        ${when(a.scheduled_at, zone)} · prospect’s time
                        ${when(a.scheduled_at, a.appointment_timezone ?? zone)} ·
                        <span class="status">${a.status}</span>
                      </li>`,
                  )}
                </ul>`
              : html`<p class="empty">No appointment.</p>`
          }
        </section>
        <section aria-labelledby="hist-h">
          <h2 id="hist-h">History</h2>
          <ol class="timeline">
            ${lead.history.map((h) => historyEntry(h, zone, names))}
          </ol>
        </section>
        <section aria-labelledby="auto-h">
          <h2 id="auto-h">Automations</h2>
          ${
            automations.webhooks.length + automations.texts.length + automations.calls.length === 0
              ? html`<p class="empty">
                  None fired for this lead (no destination, no text consent, no phone).
                </p>`
              : ''
          }
          ${automations.calls.map((c) => html`<p>Call task (speed to lead) · ${c.status} · ${when(c.created_at, zone)}</p>`)}
          ${automations.texts.map(
            (t) =>
              html`<p>
                Text to ${t.to_phone} ·
                ${t.status}${t.sent_at ? html` ${when(t.sent_at, zone)}` : html` · due ${when(t.send_at, zone)}`}${t.error ? html` · ${t.error}` : ''}
              </p>`,
          )}
          ${automations.webhooks.map(
            (w) =>
              html`<p>
                Webhook ${w.topic} → ${w.kind ?? 'removed destination'} ·
                ${w.status}${w.last_status ? html` (HTTP ${w.last_status})` : ''} · ${w.attempts}
                attempt${w.attempts === 1 ? '' : 's'}${w.last_error ? html` · ${w.last_error}` : ''}
              </p>`,
          )}
        </section>
      </main>`,
    );
  });
}
