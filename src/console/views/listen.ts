import type { SampleView } from '../../listen/listen-sample-repository.ts';
import { fieldText, label, show, when } from '../format.ts';
import { html, jsonBlock, type Html } from '../html.ts';
import { fieldList } from './components.ts';

export interface ListenData {
  sources: ReadonlyArray<{ source_id: string; name: string }>;
  /** The source shown, if the agent has any. */
  source: { source_id: string; name: string } | undefined;
  samples: SampleView[];
  zone: string;
  /** Names of the producers an agency's samples may be routed to, by agent id. */
  producers: ReadonlyMap<string, string>;
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** What a live delivery of the sample would have done, in words. */
function wouldFire(value: unknown): Html {
  const w = obj(value);
  if (!w.outcome) return html`<p class="empty">Nothing: a live delivery would have been refused.</p>`;
  const text = obj(w.text);
  const destinations = Array.isArray(w.destinations)
    ? (w.destinations as Array<Record<string, unknown>>)
    : [];
  return html`<ul>
    <li>
      ${
        w.outcome === 'merge'
          ? html`Merge into <a href="/console/leads/${String(w.lead_id)}">the existing lead</a>`
          : 'Create a new lead'
      }
    </li>
    <li>Events: ${show(w.events)}</li>
    <li>Call task: ${w.call_task ? 'yes' : 'no'}</li>
    <li>
      Text:
      ${text.send_at ? html`“${show(text.body)}” at ${show(text.send_at)}` : html`none (${show(text.skipped)})`}
    </li>
    <li>
      Destinations:
      ${destinations.length ? destinations.map((d) => html`${show(d.kind)} (${show(d.events)}) `) : 'none'}
    </li>
  </ul>`;
}

/** For an agency's source: who a live delivery would have gone to, and by which rule. */
function wouldRoute(value: unknown, producers: ReadonlyMap<string, string>): Html {
  const w = obj(value);
  if (typeof w.agent_id !== 'string') return html``;
  return html`<p>Routed to <strong>${producers.get(w.agent_id) ?? w.agent_id}</strong> (${show(w.rule)})</p>`;
}

function sample(s: SampleView, zone: string, producers: ReadonlyMap<string, string>): Html {
  const mapped = obj(s.mapped);
  const custom = Object.entries(obj(s.custom_fields));
  const warnings = Array.isArray(s.warnings) ? (s.warnings as Array<Record<string, unknown>>) : [];
  const fields = Object.entries(mapped).filter(
    ([k, v]) => v !== null && v !== undefined && k !== 'inferred_timezone' && k !== 'timezone_source',
  );
  return html`<article class="card sample" aria-label="Sample received ${when(s.received_at, zone)}">
    <h2>
      ${s.listen ? 'Listen sample' : 'Refused delivery'} ·
      ${when(s.received_at, zone)}${s.error_code ? html` · <span class="status bad">${s.error_code}</span>` : ''}
    </h2>
    ${s.error_details ? html`<p class="refusal">${s.error_details}</p>` : ''}
    <div class="side-by-side">
      <section>
        <h3>Sent</h3>
        ${s.body !== null ? jsonBlock(s.body) : html`<pre>${s.raw_body ?? ''}</pre>`}
        <p class="muted">Read as ${s.body_format ?? 'unknown'}</p>
      </section>
      <section>
        <h3>Mapped lead</h3>
        ${fieldList(fields.map(([k, v]) => [label(k), fieldText(k, v)] as const))}
        <p>
          Time zone: <strong>${show(mapped.inferred_timezone)}</strong> (from ${show(mapped.timezone_source)})
        </p>
      </section>
    </div>
    <h3>Custom fields</h3>
    ${
      custom.length
        ? fieldList(custom.map(([k, v]) => [k, show(v)] as const))
        : html`<p class="empty">None.</p>`
    }
    <h3>Warnings</h3>
    ${
      warnings.length
        ? html`<ul>
            ${warnings.map((w) => html`<li><code>${show(w.field)}</code>: ${show(w.code)}${w.message ? html` — ${show(w.message)}` : ''}</li>`)}
          </ul>`
        : html`<p class="empty">None.</p>`
    }
    <h3>A live delivery would have</h3>
    ${wouldRoute(s.would_route, producers)} ${wouldFire(s.would_fire)}
  </article>`;
}

/** Listen review: each sample of a source, its payload beside its mapping and what it would fire. */
export function listenPage({ sources, source, samples, zone, producers }: ListenData): Html {
  return html`<main>
    <h1>Listen review</h1>
    <p>
      Deliveries sent with <code>"listen": true</code> are mapped and stored here without creating a lead, so
      you can check a new vendor's fields before going live. Refused deliveries show here too.
    </p>
    ${
      sources.length
        ? html`<form method="get" action="/console/listen" class="filters">
            <label
              >Source
              <select name="source">
                ${sources.map(
                  (s) =>
                    html`<option
                      value="${s.source_id}"
                      ${s.source_id === source?.source_id ? html` selected` : ''}
                    >
                      ${s.name}
                    </option>`,
                )}
              </select></label
            ><button type="submit">Show</button>
          </form>`
        : html`<p class="empty">No sources yet: create one in <a href="/console/sources">Sources</a>.</p>`
    }
    ${source && samples.length === 0 ? html`<p class="empty">No samples for ${source.name} yet: ask the sender to post with <code>"listen": true</code> in the body.</p>` : ''}
    ${samples.map((s) => sample(s, zone, producers))}
  </main>`;
}
