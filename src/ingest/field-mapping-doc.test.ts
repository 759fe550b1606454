import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIELD_ALIASES } from './tables/aliases.ts';
import * as synonyms from './tables/synonyms.ts';

// docs/field-mapping.md shows the alias and synonym tables to vendors; these tests keep them equal to the data.
const doc = readFileSync(new URL('../../docs/field-mapping.md', import.meta.url), 'utf8');

/** Rows `| \`key\` | \`a\`, \`b\` |` (cells padded or not) of the table after `marker`, as { key: [a, b] }. */
function tableAfter(marker: string): Record<string, string[]> {
  const start = doc.indexOf(marker);
  expect(start, `marker ${marker} in docs/field-mapping.md`).toBeGreaterThanOrEqual(0);
  const rows: Record<string, string[]> = {};
  const lines = doc.slice(start).split('\n');
  const header = lines.findIndex((line) => line.startsWith('|'));
  for (const line of lines.slice(header + 2)) {
    const cells = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!cells) break;
    const names = [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
    rows[cells[1] ?? ''] = names;
  }
  return rows;
}

describe('docs/field-mapping.md', () => {
  it('When the alias data changes, then the documented alias table matches it', () => {
    expect(tableAfter('<!-- aliases:start -->')).toEqual(FIELD_ALIASES);
  });

  it.each(Object.entries(synonyms))(
    'When %s changes, then its documented table matches it',
    (name, table) => {
      expect(tableAfter(`<!-- synonyms:${name} -->`)).toEqual(table);
    },
  );
});
