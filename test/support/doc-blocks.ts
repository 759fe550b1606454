import { expect } from 'vitest';

/** The fenced blocks of `lang` (`''` for a block without one) in the part of `doc` under `heading`. */
export function blocks(doc: string, heading: string, lang: string): string[] {
  const lines = doc.split('\n');
  const from = lines.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const found: string[] = [];
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of lines.slice(from + 1)) {
    if (open) {
      if (line === '```') {
        if (open.lang === lang) found.push(`${open.lines.join('\n')}\n`);
        open = null;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { lang: line.slice(3), lines: [] };
    else if (/^#{1,3} /.test(line)) break;
  }
  return found;
}
