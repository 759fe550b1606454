import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_ZIP = 'a 5-digit ZIP code (ZIP+4 accepted)';

const ZIP_TEXT = /^(\d{5})(?:[-\s]?\d{4})?$/;

/**
 * `12345`, `12345-6789`, `12345 6789`, `123456789` → `12345`. A JSON number has lost its leading
 * zeros (a spreadsheet turned 02134 into 2134), so numbers of 3–5 digits are padded back to 5, and
 * of 7–9 digits to a ZIP+4 of 9. Text is taken as written: "2134" is refused, because a string
 * that short is as likely a mistyped digit as a lost zero. 00000 is a placeholder, not a ZIP.
 */
export function normalizeZip(value: JsonValue): Normalized<string> {
  const zip =
    typeof value === 'number' ? fromNumber(value) : typeof value === 'string' ? fromText(value) : '';
  return zip && zip !== '00000' ? valid(zip) : invalid('INVALID_ZIPCODE', EXPECTED_ZIP);
}

function fromText(text: string): string {
  return ZIP_TEXT.exec(text.trim())?.[1] ?? '';
}

function fromNumber(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) return '';
  const digits = String(n);
  if (digits.length >= 3 && digits.length <= 5) return digits.padStart(5, '0');
  if (digits.length >= 7 && digits.length <= 9) return digits.padStart(9, '0').slice(0, 5);
  return '';
}
