import { describe, expect, it } from 'vitest';
import type { SampleView } from '../../listen/listen-sample-repository.ts';
import { listenPage } from './listen.ts';

const ANN = '9b2e7c41-0d3a-4f6b-8e15-7a4c2d9f1b63';
const sample = (over: Partial<SampleView> = {}): SampleView => ({
  sample_id: '3f0c2a9e-5b7d-4c1e-9a8f-2d6b1e4c7a90',
  received_at: '2026-11-25T01:35:44.540Z',
  listen: true,
  body: { name: 'Joe', state: 'TX' },
  raw_body: null,
  body_format: 'flat',
  mapped: { name: 'Joe', state: 'TX' },
  custom_fields: {},
  warnings: [],
  error_code: null,
  error_details: null,
  would_fire: { outcome: 'create', events: ['lead.created'], call_task: false, text: {}, destinations: [] },
  would_route: null,
  ...over,
});
const page = (s: SampleView) =>
  listenPage({
    sources: [{ source_id: 's', name: 'Vendor A' }],
    source: { source_id: 's', name: 'Vendor A' },
    samples: [s],
    zone: 'America/Chicago',
    producers: new Map([[ANN, 'Ann Agent']]),
  }).text;

describe('listenPage: who an agency’s lead would go to', () => {
  it('When a sample of an agency’s source says where it would be routed, then the producer is named with the rule', () => {
    const text = page(sample({ would_route: { agent_id: ANN, rule: 'rotation' } }));
    expect(text).toContain('Routed to <strong>Ann Agent</strong> (rotation)');
  });

  it('When a sample is of an agent’s own source, then no routing is told', () => {
    expect(page(sample())).not.toContain('Routed to');
  });
});
