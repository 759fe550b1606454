import { invalid, valid } from './result.ts';
import type { Normalized } from './result.ts';
import type { JsonValue } from '../../json.ts';

const EXPECTED_EMAIL = 'an email address such as name@example.com';

// A pragmatic check, not RFC 5322: dot-atom local part, dotted hostname labels and a letter TLD (or
// punycode). Quoted local parts and raw Unicode hostnames are rare in lead forms and are refused
// (kept raw) rather than stored as a contact key the CRM would try to mail.
const LOCAL = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const TLD = '(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})';
const EMAIL = new RegExp(`^${LOCAL}@(?:${LABEL}\\.)+${TLD}$`);

/** Trimmed and lowercased, since contacts are matched on the lowercased email. */
export function normalizeEmail(value: JsonValue): Normalized<string> {
  if (typeof value !== 'string') return invalid('INVALID_EMAIL', EXPECTED_EMAIL);
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) return invalid('INVALID_EMAIL', EXPECTED_EMAIL);
  return valid(email);
}
