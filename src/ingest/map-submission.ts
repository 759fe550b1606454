import { chooseValue, groupEntries } from './choose-value.ts';
import { readControl } from './control.ts';
import { createCustomFields } from './custom-fields.ts';
import { completeName, deriveAge } from './derive.ts';
import { isLeadField } from './fields.ts';
import { readEnvelope, type FlatField } from './envelopes/index.ts';
import type { MappingRules } from './mapping-rules.ts';
import { normalizerFor } from './normalize/index.ts';
import { sanitizeJson, stripUnstorable } from './sanitize.ts';
import type { Entry, Pending } from './choose-value.ts';
import type { FieldWarning, LeadFields, MappedSubmission } from './types.ts';
import { isJsonObject, type JsonObject } from '../json.ts';

export interface MapOptions {
  /** "Today" for date-of-birth checks and the derived age. Defaults to the current time. */
  now?: Date;
  /** The source's own mapping rules, applied before the alias table. */
  rules?: MappingRules;
}

/**
 * Raw body → canonical lead, custom_fields and warnings. Pure: no I/O, never throws on a JSON
 * object. The envelope is read first (a Meta lead's `field_data`, a Typeform response, a nested
 * address …) into field/value pairs. Nothing is lost: every pair lands in `lead`, in `control` or
 * in `custom_fields` (under its original name); only blank values of lead fields are dropped, and
 * keys the source's rules ignore. docs/field-mapping.md has the rules.
 */
export function mapSubmission(body: JsonObject, options: MapOptions = {}): MappedSubmission {
  const context = { now: options.now ?? new Date() };
  const warnings: FieldWarning[] = [];
  const envelope = readEnvelope(isJsonObject(body) ? body : {});
  const clean = envelope.fields.map((field) => sanitizeField(field, warnings));
  const { byTarget, appended, unknown } = groupEntries(clean, options.rules);
  const custom = createCustomFields();
  const pending: Pending[] = unknown.map((entry) => ({ entry }));
  const control = readControl(byTarget, custom, pending, context);

  const lead: LeadFields = {};
  const origins: Record<string, string> = {};
  const extras: Array<[string, string]> = [];
  for (const [field, candidates] of byTarget) {
    if (!isLeadField(field)) continue;
    const { accepted, acceptedKey, rest } = chooseValue(field, candidates, normalizerFor(field), context);
    pending.push(...rest);
    if (!accepted) continue;
    lead[field] = appendLines(accepted.value, appended.get(field), pending);
    appended.delete(field);
    if (acceptedKey !== undefined) origins[field] = acceptedKey;
    extras.push(...Object.entries(accepted.extra ?? {}));
  }

  // Second lines whose field got no value are kept like any unknown key.
  for (const lines of appended.values()) pending.push(...lines.map((entry) => ({ entry })));
  // Kept values are written in body order, so which of two colliding keys gets the suffix is predictable.
  pending.sort((a, b) => a.entry.index - b.entry.index);
  for (const { entry, invalid } of pending) {
    const stored = custom.put(entry.key, entry.value);
    if (invalid) {
      const message = `Expected ${invalid.expected}; kept in custom_fields as "${stored}"`;
      warnings.push({ field: invalid.field, code: invalid.code, message });
    }
  }
  for (const [key, value] of extras) custom.put(key, value);

  deriveAge(lead, context.now, warnings);
  completeName(lead);
  return { lead, custom_fields: custom.fields, warnings, control, origins, format: envelope.format };
}

/** A pair PostgreSQL can store: NUL and lone surrogates removed from its key and value, with one warning. */
function sanitizeField(field: FlatField, warnings: FieldWarning[]): FlatField {
  const key = stripUnstorable(field.key);
  const own: FieldWarning[] = [];
  const raw = field.value;
  // Most values are plain text or numbers: only strings can hold what must be removed.
  const value =
    raw === null || typeof raw !== 'object'
      ? typeof raw === 'string' && stripUnstorable(raw) !== raw
        ? sanitizeJson(raw, key, own)
        : raw
      : sanitizeJson(raw, key, own);
  if (key === field.key && value === raw && own.length === 0) return field;
  if (key !== field.key && own.length === 0)
    own.push({
      field: key,
      code: 'UNSTORABLE_CHARACTERS_REMOVED',
      message: 'NUL characters or unpaired surrogates were removed from this value',
    });
  warnings.push(...own);
  return { ...field, key, value };
}

/** `123 Main St` and `Apt 4` → `123 Main St, Apt 4`; a second line that is no text is kept in custom_fields. */
function appendLines(
  value: LeadFields[string],
  lines: Entry[] | undefined,
  pending: Pending[],
): LeadFields[string] {
  if (!lines || typeof value !== 'string') {
    pending.push(...(lines ?? []).map((entry) => ({ entry })));
    return value;
  }
  const parts = [value];
  for (const entry of lines) {
    const line =
      typeof entry.value === 'string' || typeof entry.value === 'number'
        ? String(entry.value).trim()
        : undefined;
    if (line === undefined) pending.push({ entry });
    else if (line !== '') parts.push(line);
  }
  return parts.join(', ');
}
