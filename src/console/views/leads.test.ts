import { describe, expect, it } from 'vitest';
import type { LeadView } from '../../leads/lead-queries.ts';
import { html } from '../html.ts';
import { leadRows, wholeList } from './leads.ts';

const lead = (over: Partial<LeadView> = {}): LeadView => ({
  lead_id: '3f0c2a9e-5b7d-4c1e-9a8f-2d6b1e4c7a90',
  agent_id: '9b2e7c41-0d3a-4f6b-8e15-7a4c2d9f1b63',
  source_id: '1b2e7c41-0d3a-4f6b-8e15-7a4c2d9f1b63',
  status: 'New',
  name: 'Maria Gonzalez',
  phone: '3055550147',
  email: 'maria@example.com',
  created_at: '2026-11-25T01:35:44.540Z',
  updated_at: '2026-11-25T01:35:44.540Z',
  ...over,
});
const text = (rows: ReturnType<typeof leadRows>) => html`${rows}`.text;
const none = { q: '', status: '', source: '', category: '' };

describe('leadRows', () => {
  it('When the whole list is empty, then its one row is the getting-started state with the curl line', () => {
    const rows = text(
      leadRows([], 'America/New_York', new Map(), 'http://127.0.0.1:3000/v1/inbound-lead-gateway'),
    );

    expect(rows).toContain('No leads yet');
    expect(rows).toContain('curl -X POST http://127.0.0.1:3000/v1/inbound-lead-gateway');
  });

  it('When a filter finds nothing, then the row says so, without the getting-started state', () => {
    expect(text(leadRows([], 'America/New_York', new Map()))).toContain('No leads match these filters.');
  });

  it('When there is a lead, then there is no empty state: the rows that replace it hold none', () => {
    const rows = text(leadRows([lead()], 'America/New_York', new Map(), 'http://x/v1/inbound-lead-gateway'));

    expect(rows).toContain('Maria Gonzalez');
    expect(rows).not.toContain('No leads yet');
  });

  it.each([
    [none, true, true],
    [{ ...none, q: 'maria' }, true, false],
    [none, false, false],
  ])(
    'When the filters are %j on the first page %s, then the list is the whole pipeline: %s',
    (filters, first, whole) => {
      expect(wholeList(filters, first)).toBe(whole);
    },
  );
});

describe('phones in the list', () => {
  it('When a lead has a US phone, then its row shows it as (305) 555-0147, not ten bare digits', () => {
    const rows = text(leadRows([lead()], 'America/New_York', new Map()));

    expect(rows).toContain('(305) 555-0147');
    expect(rows).not.toContain('3055550147');
  });
});
