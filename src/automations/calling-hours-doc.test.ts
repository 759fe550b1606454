import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEDERAL_RULE, STATE_RULES, type ContactRule } from './tables/calling-hours.ts';

describe('docs/outbox.md: the calling-hours table', () => {
  it('When the doc lists the calling hours, then it lists exactly the data, row for row', () => {
    const doc = readFileSync(new URL('../../docs/outbox.md', import.meta.url), 'utf8');
    const block = /<!-- calling-hours:start -->([\s\S]*?)<!-- calling-hours:end -->/.exec(doc)?.[1] ?? '';
    const rows = block
      .split('\n')
      .filter((line) => /^\| (federal|[A-Z]{2}) /.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const row = (state: string, r: ContactRule) => [
      state,
      `${r.start}–${r.end}`,
      r.maxPer24h === null ? '—' : String(r.maxPer24h),
      r.source,
    ];
    expect(rows).toEqual([
      row('federal', FEDERAL_RULE),
      ...Object.entries(STATE_RULES).map(([state, r]) => row(state, r)),
    ]);
  });
});
