import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_TEXT = 'text (a string or a number)';

/**
 * Free-text fields: trimmed. Numbers and booleans become their JSON text (coverage_amount 250000 →
 * "250000"); objects and arrays are not text and are refused. Inner line breaks are kept (notes).
 */
export function normalizeText(value: JsonValue): Normalized<string> {
  if (typeof value === 'string') return valid(value.trim());
  if (typeof value === 'number' || typeof value === 'boolean') return valid(String(value));
  return invalid('INVALID_TYPE', EXPECTED_TEXT);
}

/** Names: trimmed with inner whitespace collapsed, so `"Ada   Lovelace"` splits cleanly into first/last. */
export function normalizePersonName(value: JsonValue): Normalized<string> {
  const text = normalizeText(value);
  return text.ok ? valid(text.value.replace(/\s+/gu, ' ')) : text;
}
