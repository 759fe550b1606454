import type { JsonValue } from '../json.ts';
import { normalizeEmail } from '../ingest/normalize/email.ts';
import { normalizePhone } from '../ingest/normalize/phone.ts';

/** An entry of a list as it is stored: a phone's 10 digits, or an email in lower case. */
export type EntryValue = string;

/** Whether a stored entry is an email (it has an @) or a phone. */
export const entryKind = (value: EntryValue): 'phone' | 'email' => (value.includes('@') ? 'email' : 'phone');

/**
 * The phones and emails of a request or a file line as stored, normalized the way leads are (so a
 * lead's phone and a list's match whatever their writing); the first value that is neither is
 * named, as `phones[3]`, and nothing is kept.
 */
export function parseEntries(given: {
  phones?: readonly JsonValue[];
  emails?: readonly JsonValue[];
}): { ok: true; values: EntryValue[] } | { ok: false; field: string; expected: string } {
  const values = new Set<EntryValue>();
  for (const [field, list, normalize] of [
    ['phones', given.phones, normalizePhone],
    ['emails', given.emails, normalizeEmail],
  ] as const) {
    for (const [i, raw] of (list ?? []).entries()) {
      const n = normalize(raw);
      if (!n.ok) return { ok: false, field: `${field}[${i}]`, expected: n.expected };
      values.add(n.value);
    }
  }
  return { ok: true, values: [...values] };
}
