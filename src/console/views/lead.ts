import { LEAD_FIELDS } from '../../ingest/fields.ts';
import type { LeadRead } from '../../use-cases/lead-read.ts';
import type { HistoryView } from '../../leads/lead-queries.ts';
import type { CallOutcome, LeadStatus } from '../../leads/lead-status.ts';
import { OUTCOME_LABELS } from './dial-queue.ts';
import { fieldText, label, phone, RECORDED, show, textStatus, when } from '../format.ts';
import { html, jsonBlock, type Html } from '../html.ts';
import type { LeadAutomations } from '../lead-automations.ts';
import { fieldList } from './components.ts';
import { consentCheck } from './consent-check.ts';
import { purchasesSection } from './purchases.ts';
import { returnsSection, salesSection } from './returns-and-sales.ts';
import { ACTION_NOTICES, leadActions, type ActionNotice } from './lead-actions.ts';
import { threadSection } from './conversation.ts';
import { cadenceSection } from './lead-cadence.ts';
import { remindersSection } from './lead-reminders.ts';
import type { ThreadMessage } from '../../conversations/thread-repository.ts';
import { DO_NOT_CONTACT } from '../../automations/do-not-contact.ts';
import { text } from '../../json.ts';

export interface LeadPageData {
  lead: LeadRead;
  zone: string;
  sourceNames: Map<string, string>;
  automations: LeadAutomations;
  /** Active destinations of the lead's source: whether its events go out as webhooks. */
  destinations: number;
  csrf: string;
  /** The lead's texts, both ways, oldest first. */
  messages: readonly ThreadMessage[];
  /** What the action just done says (the page it redirected to). */
  notice?: ActionNotice;
}

/** The lead's number opted out or marked do not contact, as its read has it. */
type OptOut = { at: string; keyword: string; words: string | null; texts_resumed_at?: string | null } | null;
const optOutOf = (lead: LeadRead): OptOut => (lead.opt_out as OptOut | undefined) ?? null;

/** What the header says of an opt-out: the prospect's, or the agent's "do not contact". */
export function optOutBadge(optOut: OptOut): Html | string {
  if (!optOut) return '';
  return optOut.keyword === DO_NOT_CONTACT
    ? html`<span class="status bad">Do not contact</span>`
    : optOut.texts_resumed_at
      ? html`<span class="status bad">No calls: texts resumed</span>`
      : html`<span class="status bad">Opted out</span>`;
}

/**
 * One lead: its fields, custom fields, consent evidence and its check, appointments, purchases, returns, sales,
 * history, automations.
 */
export function leadPage({
  lead,
  zone,
  sourceNames,
  automations,
  destinations,
  csrf,
  messages,
  notice,
}: LeadPageData): Html {
  const optOut = optOutOf(lead);
  const sourceName = (id: string | null) => (id ? (sourceNames.get(id) ?? 'a removed source') : '');
  const fields = Object.keys(LEAD_FIELDS).filter(
    (f) => lead[f] !== null && lead[f] !== undefined && f !== 'name',
  );
  const custom = Object.entries((lead.custom_fields ?? {}) as Record<string, unknown>);
  return html`<main>
    <p><a href="/console/leads">← Leads</a></p>
    <h1>${lead.name}</h1>
    <p>
      <span class="status">${lead.status}</span> ${optOutBadge(optOut)} · received
      ${when(lead.created_at, zone)} from ${sourceName(lead.source_id)} · updated
      ${when(lead.updated_at, zone)}
    </p>
    ${
      notice
        ? html`<p class="${/refused|[A-Z]/.test(notice) ? 'error' : 'notice'}" role="status">
            ${ACTION_NOTICES[notice]}
          </p>`
        : ''
    }
    ${threadSection({
      lead_id: lead.lead_id,
      messages,
      zone,
      csrf,
      block:
        optOut && !optOut.texts_resumed_at
          ? 'opted_out'
          : typeof lead.phone === 'string' && lead.phone !== ''
            ? null
            : 'no_phone',
    })}
    ${leadActions({
      lead_id: lead.lead_id,
      status: lead.status as LeadStatus,
      doNotContact: lead.history.some((h) => h.event === 'do_not_contact'),
      csrf,
    })}
    ${cadenceSection(lead.cadence, { lead_id: lead.lead_id, name: lead.name, zone, csrf })}
    ${remindersSection(lead.reminders, zone)}
    <section aria-labelledby="fields-h">
      <h2 id="fields-h">Fields</h2>
      ${fieldList(fields.map((f) => [label(f), fieldText(f, lead[f])] as const))}
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
      ${consentEvidence(lead.consent, zone, sourceName, optOut)} ${consentCheck(lead.consent_check, zone)}
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
    ${purchasesSection(lead.purchases, zone, sourceName)} ${returnsSection(lead.returns, zone, sourceName)}
    ${salesSection(lead.sales, zone)}
    <section aria-labelledby="hist-h">
      <h2 id="hist-h">History</h2>
      <ol class="timeline">
        ${lead.history.map((h) => historyEntry(h, zone, sourceName))}
      </ol>
    </section>
    <section aria-labelledby="auto-h">
      <h2 id="auto-h">Automations</h2>
      ${automationsList(automations, zone, {
        phone: typeof lead.phone === 'string' && lead.phone !== '',
        textConsent:
          lead.sms_consent === true ||
          (lead.consent as { sms_consent?: unknown } | null)?.sms_consent === true,
        destinations,
      })}
    </section>
  </main>`;
}

/**
 * The texting consent the latest delivery that stated it gave, and its evidence (what a TCPA
 * dispute asks for), as labelled fields; a certificate is a link only when it is http(s).
 */
export function consentEvidence(
  consent: unknown,
  zone: string,
  sourceName: (id: string | null) => string,
  optOut: OptOut = null,
): Html {
  const revoked = optOut ? revokedText(optOut, zone) : null;
  if (!consent || typeof consent !== 'object') {
    return revoked
      ? html`<dl class="fields">
          <dt>Texts</dt>
          <dd><strong>${revoked}</strong></dd>
        </dl>`
      : html`<p class="empty">The sender sent no consent evidence.</p>`;
  }
  const c = consent as Record<string, unknown>;
  const shown = (v: unknown) => text(v) ?? '—';
  const cert =
    typeof c.consent_cert_url === 'string' && /^https?:\/\//i.test(c.consent_cert_url)
      ? c.consent_cert_url
      : null;
  return html`<dl class="fields">
    <dt>Texts</dt>
    ${textsConsent(c.sms_consent === true, revoked)}
    <dt>Stated</dt>
    <dd>
      ${when(typeof c.received_at === 'string' ? c.received_at : null, zone)}${typeof c.source_id === 'string' ? html` · from ${sourceName(c.source_id)}` : ''}
    </dd>
    <dt>Certificate</dt>
    <dd>
      ${cert ? html`<a href="${cert}" rel="noopener noreferrer" target="_blank">${cert}</a>` : shown(c.consent_cert_url)}
    </dd>
    <dt>LeadiD token</dt>
    <dd>${shown(c.consent_token)}</dd>
    <dt>IP address</dt>
    <dd>${shown(c.ip_address)}</dd>
    <dt>User agent</dt>
    <dd>${shown(c.user_agent)}</dd>
  </dl>`;
}

/** What the lead said of texts: consented, declined, or revoked since. */
const textsConsent = (consented: boolean, revoked: string | null): Html =>
  revoked
    ? html`<dd><strong>${revoked}</strong></dd>`
    : html`<dd>${consented ? 'Consented' : 'Declined'}</dd>`;

/** "revoked (date, words)": when, and the prospect's own words, or the agent's marking. */
function revokedText(optOut: NonNullable<OptOut>, zone: string): string {
  const words =
    optOut.keyword === DO_NOT_CONTACT ? 'marked do not contact' : `“${optOut.words ?? optOut.keyword}”`;
  const resumed = optOut.texts_resumed_at ? `; texts resumed ${when(optOut.texts_resumed_at, zone)}` : '';
  return `revoked (${when(optOut.at, zone)}, ${words}${resumed})`;
}

/** What a history entry says happened: a text the recorder kept says that nothing was sent. */
function historyTitle(h: HistoryView): string {
  const provider = (h.details as { provider?: unknown } | null)?.provider;
  if (h.event === 'sms_sent' && provider === 'recorder') return `Text ${RECORDED}`;
  return label(h.event);
}

/** What an agent's action said, in its own words: the note, the call's outcome, the number stopped. */
function agentSaid(h: HistoryView): Html | string {
  const d = (h.details ?? {}) as { note?: unknown; outcome?: unknown; phone?: unknown; body?: unknown };
  if (h.event === 'note' && typeof d.note === 'string')
    return html`<blockquote class="note">${d.note}</blockquote>`;
  if (h.event === 'sms_reply' && typeof d.body === 'string')
    return html`<blockquote class="note">${d.body || '(an empty text)'}</blockquote>`;
  if (h.event === 'call_outcome' && typeof d.outcome === 'string')
    return html`<p class="muted">${OUTCOME_LABELS[d.outcome as CallOutcome] ?? d.outcome}</p>`;
  if (h.event === 'do_not_contact')
    return html`<p class="muted">
      ${typeof d.phone === 'string' ? `No more texts or calls to ${phone(d.phone)}.` : 'The lead has no phone to stop.'}
    </p>`;
  return '';
}

/** One history entry: what happened, from which source, and each field it changed (from → to). */
function historyEntry(h: HistoryView, zone: string, sourceName: (id: string | null) => string): Html {
  const changes =
    h.changes && typeof h.changes === 'object' ? Object.entries(h.changes as Record<string, unknown>) : [];
  const details =
    h.details && typeof h.details === 'object' ? Object.entries(h.details as Record<string, unknown>) : [];
  return html`<li>
    <p>
      <strong>${historyTitle(h)}</strong> ·
      ${when(h.created_at, zone)}${h.source_id ? html` · from ${sourceName(h.source_id)}` : ''}
    </p>
    ${agentSaid(h)}
    ${
      changes.length
        ? html`<ul class="changes">
            ${changes.map(([field, change]) => {
              const c = (change ?? {}) as { from?: unknown; to?: unknown };
              return html`<li>
                ${label(field)}: <del>${fieldText(field, c.from)}</del> → <ins>${fieldText(field, c.to)}</ins>
              </li>`;
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

/** What decides a lead's follow-up: a phone (a call task), text consent too (a text), destinations (webhooks). */
export interface FollowUpFacts {
  phone: boolean;
  textConsent: boolean;
  destinations: number;
}

const joined = (words: string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : (words[0] ?? '');

/** Why nothing has fired for a lead, from what it has: only the reasons that hold. */
export function noAutomations({ phone, textConsent, destinations }: FollowUpFacts): string {
  const due = [
    phone && 'a call task',
    phone && textConsent && 'a text',
    destinations > 0 && 'webhooks',
  ].filter((w): w is string => typeof w === 'string');
  const not = [
    !phone && 'no call task or text: it has no phone',
    phone && !textConsent && 'no text: it has no text consent',
    destinations === 0 && 'no webhook: its source has no destination',
  ].filter((w): w is string => typeof w === 'string');
  const because = not.length ? ` ${joined(not).replace(/^./, (c) => c.toUpperCase())}.` : '';
  if (due.length === 0) return `None fired for this lead.${because}`;
  return `None fired yet: ${joined(due)} follow a delivery within seconds.${because}`;
}

/** The call tasks, texts and webhook deliveries made for the lead, or why there are none. */
function automationsList(automations: LeadAutomations, zone: string, facts: FollowUpFacts): Html {
  const { calls, texts, webhooks } = automations;
  if (calls.length + texts.length + webhooks.length === 0) {
    return html`<p class="empty">${noAutomations(facts)}</p>`;
  }
  return html`${calls.map((c) => html`<p>Call task (speed to lead) · ${c.status} · ${when(c.created_at, zone)}</p>`)}
  ${texts.map(
    (t) =>
      html`<p>
        Text to ${phone(t.to_phone)} ·
        ${textStatus(t.status, t.provider)}${t.sent_at ? html` ${when(t.sent_at, zone)}` : html` · due ${when(t.send_at, zone)}`}${t.error ? html` · ${t.error}` : ''}
      </p>`,
  )}
  ${webhooks.map(
    (w) =>
      html`<p>
        Webhook ${w.topic} →
        ${w.url ? html`<span class="url">${w.url}</span> (${w.kind})` : 'a removed destination'} ·
        ${w.status}${w.last_status ? html` (HTTP ${w.last_status})` : ''} · ${w.attempts}
        attempt${w.attempts === 1 ? '' : 's'}${w.last_error ? html` · ${w.last_error}` : ''}
      </p>`,
  )}`;
}
