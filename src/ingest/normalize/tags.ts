import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_TAGS = 'a list of text tags, or one comma-separated string';

/**
 * `["vip", " hot "]` or `"vip, hot"` → `["vip", "hot"]`: trimmed, blanks dropped, duplicates dropped
 * case-insensitively (the first spelling is kept; the CRM treats `VIP` and `vip` as one tag). Numbers
 * are written as text. A list holding objects, lists or booleans is refused whole, since
 * guessing which items the sender meant would drop the others silently. Array items are not split
 * on commas: the sender already chose the boundaries.
 */
export function normalizeTags(value: JsonValue): Normalized<string[]> {
  if (typeof value === 'string') return valid(dedupe(value.split(',')));
  if (typeof value === 'number') return valid([String(value)]);
  if (!Array.isArray(value)) return invalid('INVALID_TAGS', EXPECTED_TAGS);
  const items: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') items.push(item);
    else if (typeof item === 'number') items.push(String(item));
    else if (item !== null) return invalid('INVALID_TAGS', EXPECTED_TAGS);
  }
  return valid(dedupe(items));
}

function dedupe(items: readonly string[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of items) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}
