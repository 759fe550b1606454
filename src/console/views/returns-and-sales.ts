import type { LeadReturn } from '../../economics/returns.ts';
import type { LeadSale } from '../../economics/sales.ts';
import { dollars } from '../../money.ts';
import { when } from '../format.ts';
import { html, jsonBlock, type Html } from '../html.ts';
import { listSection } from './components.ts';
import { REASON_LABELS } from './lead-actions.ts';

/** How each outcome of a return looks: a credit is good news, a denial is not. */
const OUTCOME_CLASS = { requested: 'status', credited: 'status ok', denied: 'status bad' } as const;
const OUTCOME_WORDS = {
  requested: 'requested, awaiting the vendor',
  credited: 'credited',
  denied: 'denied',
} as const;

/**
 * A lead's returns, oldest first: the purchase asked back, why, what the vendor answered and when,
 * the agent's note, and the evidence sent, which is what a vendor disputing it will ask for.
 */
export function returnsSection(
  returns: readonly LeadReturn[],
  zone: string,
  sourceName: (id: string | null) => string,
): Html {
  return listSection(
    'returns',
    'Returns',
    returns,
    (r) =>
      html`${when(r.created_at, zone)} · ${sourceName(r.source_id)} · ${dollars(r.price_cents)} ·
        ${REASON_LABELS[r.reason]} ·
        <span class="${OUTCOME_CLASS[r.status]}">${OUTCOME_WORDS[r.status]}</span>${
          r.decided_at ? html` ${when(r.decided_at, zone)}` : ''
        }
        ${r.note ? html`<blockquote class="note">${r.note}</blockquote>` : ''}
        <details>
          <summary>Evidence</summary>
          ${jsonBlock(r.evidence)}
        </details>`,
    'None: this lead was not returned to a vendor.',
  );
}

/** A lead's sales, in the order sold: when, the premium, and what was sold. */
export function salesSection(sales: readonly LeadSale[], zone: string): Html {
  return listSection(
    'sales',
    'Sales',
    sales,
    (s) =>
      html`${when(s.sold_at, zone)} · ${dollars(s.premium_cents)}
      premium${s.product ? html` · ${s.product}` : ''}`,
    'None recorded.',
  );
}
