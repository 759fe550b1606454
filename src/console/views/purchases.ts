import type { Purchase } from '../../leads/purchase-repository.ts';
import { dollars, when } from '../format.ts';
import { html, type Html } from '../html.ts';

/** A lead's purchases, oldest first: each accepted live delivery, its price, and whether it is billable. */
export function purchasesSection(
  purchases: readonly Purchase[],
  zone: string,
  sourceName: (id: string | null) => string,
): Html {
  return html`<section aria-labelledby="purchases-h">
    <h2 id="purchases-h">Purchases</h2>
    ${
      purchases.length
        ? html`<ul>
            ${purchases.map(
              (p) =>
                html`<li>
                  ${when(p.at, zone)} · ${sourceName(p.source_id)} · ${dollars(p.price_cents)} ·
                  ${p.billable ? 'billable' : html`<span class="status">not billable: ${p.reason ?? ''}</span>`}
                </li>`,
            )}
          </ul>`
        : html`<p class="empty">None: no live delivery was accepted for this lead.</p>`
    }
  </section>`;
}
