import type { Purchase } from '../../leads/purchase-repository.ts';
import { dollars } from '../../money.ts';
import { when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { listSection } from './components.ts';

/** A lead's purchases, oldest first: each accepted live delivery, its price, and whether it is billable. */
export function purchasesSection(
  purchases: readonly Purchase[],
  zone: string,
  sourceName: (id: string | null) => string,
): Html {
  return listSection(
    'purchases',
    'Purchases',
    purchases,
    (p) =>
      html`${when(p.at, zone)} · ${sourceName(p.source_id)} · ${dollars(p.price_cents)} ·
      ${p.billable ? 'billable' : html`<span class="status">not billable: ${p.reason ?? ''}</span>`}`,
    'None: no live delivery was accepted for this lead.',
  );
}
