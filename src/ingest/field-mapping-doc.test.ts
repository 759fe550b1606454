import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPENDED_ALIASES, FALLBACK_ALIASES, FIELD_ALIASES } from './tables/aliases.ts';
import { FIELD_GROUPS } from './tables/field-groups.ts';
import { QUESTION_LEAD_INS, QUESTION_PHRASES, QUESTION_TAILS } from './tables/questions.ts';
import * as synonyms from './tables/synonyms.ts';

// docs/field-mapping.md shows the alias and synonym tables to vendors; these tests keep them equal to the data.
const docs = {
  'docs/field-mapping.md': readFileSync(new URL('../../docs/field-mapping.md', import.meta.url), 'utf8'),
};
const doc = docs['docs/field-mapping.md'];

/** Rows `| \`key\` | \`a\`, \`b\` |` (cells padded or not) of the table after `marker`, as { key: [a, b] }. */
function tableAfter(marker: string, text = doc): Record<string, string[]> {
  const start = text.indexOf(marker);
  expect(start, `marker ${marker} in docs/field-mapping.md`).toBeGreaterThanOrEqual(0);
  const rows: Record<string, string[]> = {};
  const lines = text.slice(start).split('\n');
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
  it.each(Object.keys(docs) as Array<keyof typeof docs>)(
    'When the alias data changes, then the alias table of %s matches it',
    (file) => {
      expect(tableAfter('<!-- aliases:start -->', docs[file])).toEqual(FIELD_ALIASES);
    },
  );

  it.each([
    ['fallback-aliases', FALLBACK_ALIASES],
    ['appended-aliases', APPENDED_ALIASES],
    ['field-groups', FIELD_GROUPS],
    ['question-words', { lead_ins: QUESTION_LEAD_INS, tails: QUESTION_TAILS }],
    ['question-phrases', QUESTION_PHRASES],
  ])('When the %s data changes, then its documented table matches it', (name, table) => {
    expect(tableAfter(`<!-- ${name}:start -->`)).toEqual(table);
  });

  it.each(Object.entries(synonyms))(
    'When %s changes, then its documented table matches it',
    (name, table) => {
      expect(tableAfter(`<!-- synonyms:${name} -->`)).toEqual(table);
    },
  );
});
