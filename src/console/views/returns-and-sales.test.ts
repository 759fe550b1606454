import { describe, expect, it } from 'vitest';
import type { LeadReturn } from '../../economics/returns.ts';
import type { LeadSale } from '../../economics/sales.ts';
import { returnsSection, salesSection } from './returns-and-sales.ts';

const names = (id: string | null) => (id === 'src-1' ? 'QuoteWizard' : 'a removed source');

const asked: LeadReturn = {
  return_id: 'ret-1',
  lead_id: 'lead-1',
  source_id: 'src-1',
  reason: 'disconnected',
  note: 'Number <b>out</b> of service',
  status: 'requested',
  price_cents: 4_000,
  evidence: { dial_attempts: 2, phone: '3125550100' },
  created_at: '2026-11-25T01:35:44.540Z',
  decided_at: null,
};

describe('returnsSection', () => {
  it('When a return awaits the vendor, then it shows when, the source, the price as money, the reason, its status, the note and the evidence', () => {
    const shown = returnsSection([asked], 'America/New_York', names).text;

    expect(shown).toContain('Tue, Nov 24, 2026, 8:35 PM EST');
    expect(shown).toContain('QuoteWizard');
    expect(shown).toContain('$40.00');
    expect(shown).toContain('Disconnected number');
    expect(shown).toContain('<span class="status">requested, awaiting the vendor</span>');
    expect(shown).toContain('<blockquote class="note">Number &lt;b&gt;out&lt;/b&gt; of service</blockquote>');
    expect(shown).toContain('<summary>Evidence</summary>');
    expect(shown).toContain('&quot;dial_attempts&quot;: 2');
  });

  it('When the vendor credited or denied it, then the status says so, marked good or bad, with when it was decided', () => {
    const shown = returnsSection(
      [
        { ...asked, status: 'credited', note: null, decided_at: '2026-11-26T15:00:00.000Z' },
        { ...asked, return_id: 'ret-2', status: 'denied', decided_at: '2026-11-27T15:00:00.000Z' },
      ],
      'UTC',
      names,
    ).text;

    expect(shown).toContain('<span class="status ok">credited</span> Thu, Nov 26, 2026, 3:00 PM UTC');
    expect(shown).toContain('<span class="status bad">denied</span> Fri, Nov 27, 2026, 3:00 PM UTC');
    expect(shown.indexOf('credited')).toBeLessThan(shown.indexOf('denied'));
  });

  it('When there is none, then it says the lead was not returned', () => {
    expect(returnsSection([], 'UTC', names).text).toContain('None: this lead was not returned to a vendor.');
  });
});

describe('salesSection', () => {
  const sale: LeadSale = {
    sale_id: 'sale-1',
    lead_id: 'lead-1',
    source_id: 'src-1',
    premium_cents: 120_000,
    product: 'Medicare Supplement',
    sold_at: '2026-11-30T15:00:00.000Z',
    created_at: '2026-11-30T15:05:00.000Z',
  };

  it('When the lead was sold, then each sale shows when, the premium as money and the product', () => {
    const shown = salesSection(
      [sale, { ...sale, sale_id: 'sale-2', premium_cents: 5_050, product: null }],
      'UTC',
    ).text;

    expect(shown).toContain('Mon, Nov 30, 2026, 3:00 PM UTC');
    expect(shown).toMatch(/\$1,200\.00\s+premium · Medicare Supplement/);
    expect(shown).toMatch(/\$50\.50\s+premium\s*<\/li>/);
  });

  it('When there is none, then it says none was recorded', () => {
    expect(salesSection([], 'UTC').text).toContain('None recorded.');
  });
});
