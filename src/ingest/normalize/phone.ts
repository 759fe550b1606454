import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_PHONE = 'a 10-digit US or Canadian phone number, such as (213) 373-4253';

// A NANP area code starts with 2–9. The exchange is not checked and the area code is not looked up,
// so test numbers such as 555-123-4567 and newly opened area codes still pass.
const NANP_NATIONAL = /^[2-9]\d{9}$/;

/**
 * Any common US writing (`+1 (213) 373-4253`, `213.373.4253`, `1-213-373-4253`, `2133734253`) → the
 * 10 national digits. An extension (`x123`, `ext. 123`, `#123`) is returned aside as
 * `phone_extension`. Parsing is libphonenumber-js with extraction off, so free text around a number
 * ("call 213-373-4253 now") is refused rather than silently cut away.
 */
export function normalizePhone(value: JsonValue): Normalized<string> {
  const text = typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : value;
  if (typeof text !== 'string') return invalid('INVALID_PHONE', EXPECTED_PHONE);
  // Most numbers arrive in one of a few plain writings, which need no parser: the same answer,
  // several times faster (a property test holds it to libphonenumber's).
  const plain = PLAIN_NANP.exec(text);
  if (plain) return withExtension(`${plain[1] ?? plain[2]}${plain[3]}${plain[4]}`, plain[5]);
  // Fewer than ten digits can never be a 10-digit number. The parser reads digits only (letters are
  // not turned into digits), though other scripts' digits too: so this shortcut is for ASCII text.
  if (PRINTABLE_ASCII.test(text) && text.replace(NOT_DIGIT, '').length < 10) {
    return invalid('INVALID_PHONE', EXPECTED_PHONE);
  }
  return parseWithLibrary(text);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NOT_DIGIT = /\D/g;

/**
 * `2133734253`, `213-373-4253`, `213.373.4253`, `213 373 4253`, `(213) 373-4253`, optionally after
 * `1`, `1-`, `+1 ` or `+1`, optionally followed by an extension of up to six digits written the
 * common English ways (`x12`, `ext. 7`, `Ext 45`, `extension 9`, `#77`, a space or none around the
 * mark), and nothing else: no other letters, no spaces around.
 */
const PLAIN_NANP =
  /^(?:\+?1[ .-]?)?(?:\(([2-9]\d\d)\) ?|([2-9]\d\d)[ .-]?)(\d{3})[ .-]?(\d{4})(?: ?(?:[xX]|[eE][xX][tT]\.?|[eE][xX][tT][eE][nN][sS][iI][oO][nN]|#) ?(\d{1,6}))?$/;

/** libphonenumber-js's reading of any other writing. */
export function parseWithLibrary(text: string): Normalized<string> {
  const parsed = parsePhoneNumberFromString(text.trim(), { defaultCountry: 'US', extract: false });
  if (!parsed || parsed.countryCallingCode !== '1' || !NANP_NATIONAL.test(parsed.nationalNumber)) {
    return invalid('INVALID_PHONE', EXPECTED_PHONE);
  }
  return withExtension(String(parsed.nationalNumber), parsed.ext);
}

/** The national digits, with the extension (if any) set aside as `phone_extension`. */
function withExtension(national: string, ext: string | undefined): Normalized<string> {
  return ext ? { ok: true, value: national, extra: { phone_extension: ext } } : valid(national);
}
