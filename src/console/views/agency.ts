import type { Agency, MemberView } from '../../routing/agency-repository.ts';
import type { FallbackLead } from '../../routing/fallback-queue.ts';
import { SKIP_REASONS, type SkipReason } from '../../routing/route.ts';
import { when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { actionButton, dataTable, fieldList } from './components.ts';

export interface AgencySummary {
  agency: Agency;
  members: MemberView[];
  /** Leads waiting in the agency's fallback queue. */
  waiting: number;
}

export interface AgenciesData {
  agencies: AgencySummary[];
  /** The signed-in agent: what the operator names as fallback producer to make one. */
  agentId: string;
}

export interface AgencyData {
  agency: Agency;
  members: MemberView[];
  queue: FallbackLead[];
  zone: string;
  csrf: string;
  /** What the last action came to (a lead given, a refusal), above the producers. */
  notice?: Html;
}

/** Each producer's leads today and its share of all the agency's producers got today (null: none yet). */
export function sharesToday(
  members: readonly MemberView[],
): Array<{ count: number; percent: number | null }> {
  const total = members.reduce((sum, m) => sum + m.assigned_today, 0);
  return members.map((m) => ({
    count: m.assigned_today,
    percent: total === 0 ? null : Math.round((100 * m.assigned_today) / total),
  }));
}

const givenToday = (members: readonly MemberView[]) => members.reduce((sum, m) => sum + m.assigned_today, 0);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The agencies the agent is the fallback producer of, or how to get one. */
export function agenciesPage({ agencies, agentId }: AgenciesData): Html {
  return html`<main>
    <h1>Agency</h1>
    <p>
      An agency shares its vendors among producers: each lead of its sources goes at once to one producer
      licensed in the prospect’s state, in turn. You manage the agencies you are the fallback producer of: you
      take the leads nobody else may, and give them on from here.
    </p>
    ${
      agencies.length
        ? agencies.map(({ agency, members, waiting }) => {
            const paused = members.filter((m) => !m.active).length;
            return html`<section class="card" aria-labelledby="agency-${agency.agency_id}">
              <h2 id="agency-${agency.agency_id}">
                <a href="/console/agencies/${agency.agency_id}">${agency.name}</a>
              </h2>
              <p>
                ${plural(members.length, 'producer')}${paused ? ` (${paused} paused)` : ''} ·
                ${plural(givenToday(members), 'lead')} given today · ${plural(waiting, 'lead')} waiting in
                your fallback queue
              </p>
            </section>`;
          })
        : html`<p class="empty">
              You manage no agency. The operator makes one with you as its fallback producer, then adds its
              producers and sources:
            </p>
            <pre>
leadgate agencies create "Agency name" --fallback ${agentId}
leadgate agencies member AGENCY_ID AGENT_ID --states TX,OK</pre>`
    }
  </main>`;
}

/** One agency: its producers and their share today, and the fallback queue with one-click reassign. */
export function agencyPage(d: AgencyData): Html {
  const { agency, members, queue } = d;
  const shares = sharesToday(members);
  return html`<main>
    <p><a href="/console/agencies">← Agency</a></p>
    <h1>${agency.name}</h1>
    ${fieldList([
      ['Fallback producer', 'you: the leads nobody else may take come to you'],
      ['Time zone', `${agency.timezone}: the day a daily cap counts`],
      [
        'Claim timer',
        agency.claim_minutes === null
          ? 'off: a producer keeps a lead however long it waits'
          : `a lead not called within ${plural(agency.claim_minutes, 'minute')} of calling hours moves to the next producer`,
      ],
    ])}
    ${d.notice ?? ''}
    <section aria-labelledby="producers-h">
      <h2 id="producers-h">Producers today</h2>
      ${
        members.length
          ? html`<p>${plural(givenToday(members), 'lead')} given to producers today (${agency.timezone}).</p>
              ${dataTable(
                ['Producer', 'Licensed in', 'Weight', 'Daily cap', 'Leads today', 'Share of today', 'Status'],
                members.map((m, i) => producerRow(m, shares[i]?.percent ?? null)),
                { caption: 'Producers, their licenses, weights, caps and leads today' },
              )}`
          : html`<p class="empty">
              No producers yet: every lead comes to you. The operator adds one with
              <code>leadgate agencies member ${agency.agency_id} AGENT_ID --states TX,OK</code>.
            </p>`
      }
    </section>
    <section aria-labelledby="queue-h">
      <h2 id="queue-h">Fallback queue</h2>
      <p>
        Leads nobody could take when they came, still New, newest first. Give each to a producer licensed in
        its state: it becomes theirs, in their dial queue, and leaves this list. Or call it yourself: it is
        your lead until then.
      </p>
      ${
        queue.length
          ? dataTable(
              ['Lead', 'State', 'Why it came to you', 'Received', 'Give it to'],
              queue.map((lead) => queueRow(lead, d, names(members))),
              { caption: 'The fallback queue' },
            )
          : html`<p class="empty">Nothing waiting: every lead found a producer.</p>`
      }
    </section>
  </main>`;
}

const names = (members: readonly MemberView[]) => new Map(members.map((m) => [m.agent_id, m.name]));

function producerRow(m: MemberView, percent: number | null): Html {
  const atCap = m.daily_cap !== null && m.assigned_today >= m.daily_cap;
  return html`<tr>
    <td>${m.name}</td>
    <td>${m.licensed_states.length ? m.licensed_states.join(', ') : 'none'}</td>
    <td>${m.weight}</td>
    <td>${m.daily_cap ?? 'none'}</td>
    <td>${m.assigned_today}</td>
    <td>${percent === null ? '—' : `${percent}%`}</td>
    <td>
      ${
        !m.active
          ? html`<span class="status bad">paused</span>`
          : atCap
            ? html`<span class="status">at its cap</span>`
            : html`<span class="status ok">taking leads</span>`
      }
    </td>
  </tr>`;
}

const REASONS: Record<SkipReason, (state: string) => string> = {
  not_licensed: (state) => `Not licensed in ${state}`,
  inactive: () => 'Paused',
  daily_cap: () => 'At its daily cap',
};

/** Why routing passed the lead to the fallback producer, in words: the producers skipped, by reason. */
export function whySkipped(lead: FallbackLead, producers: ReadonlyMap<string, string>): string {
  const { state, skipped } = lead;
  if (state === null) return 'No state found: the lead has no state, ZIP code or US area code.';
  if (skipped.length === 0) return 'The agency had no producer.';
  if (skipped.every((s) => s.reason === 'not_licensed')) return `No producer is licensed in ${state}.`;
  return SKIP_REASONS.flatMap((reason) => {
    const who = skipped.filter((s) => s.reason === reason);
    const names = who.map((s) => producers.get(s.agent_id) ?? 'a former producer');
    return who.length ? [`${REASONS[reason](state)}: ${names.join(', ')}.`] : [];
  }).join(' ');
}

function queueRow(lead: FallbackLead, d: AgencyData, producers: ReadonlyMap<string, string>): Html {
  const paused = new Set(d.members.filter((m) => !m.active).map((m) => m.agent_id));
  const action = `/console/agencies/${d.agency.agency_id}/fallback-queue/${lead.lead_id}/assign`;
  return html`<tr>
    <td><a href="/console/leads/${lead.lead_id}">${lead.name}</a></td>
    <td>${lead.state ?? 'unknown'}</td>
    <td>${whySkipped(lead, producers)}</td>
    <td>${when(lead.created_at, d.zone)}</td>
    <td>
      ${
        lead.licensed.length
          ? html`<div class="actions">
              ${lead.licensed.map((p) =>
                actionButton(
                  d.csrf,
                  action,
                  html`Give <span class="sr-only">${lead.name} </span>to
                    ${p.name}${paused.has(p.agent_id) ? ' (paused)' : ''}`,
                  { fields: { agent_id: p.agent_id } },
                ),
              )}
            </div>`
          : html`<span class="muted">Nobody licensed there: call it yourself</span>`
      }
    </td>
  </tr>`;
}

/** A lead given by hand: to whom, and where it is now. */
export const givenNotice = (producer: string): Html =>
  html`<p class="notice" role="status">Given to ${producer}: the lead is in their dial queue now.</p>`;
