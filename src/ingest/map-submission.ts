import { chooseValue, groupEntries } from './choose-value.ts';
import { readControl } from './control.ts';
import { createCustomFields } from './custom-fields.ts';
import { completeName, deriveAge } from './derive.ts';
import { isLeadField } from './fields.ts';
import { normalizerFor } from './normalize/index.ts';
import { sanitizeJson } from './sanitize.ts';
import type { Pending } from './choose-value.ts';
import type { FieldWarning, LeadFields, MappedSubmission } from './types.ts';
import { isJsonObject, type JsonObject } from '../json.ts';

export interface MapOptions {
  /** "Today" for date-of-birth checks and the derived age. Defaults to the current time. */
  now?: Date;
}

/**
 * Raw body → canonical lead, custom_fields and warnings. Pure: no I/O, never throws on a JSON
 * object. Nothing is lost: every key lands in `lead`, in `control` or in `custom_fields` (under
 * its original name); only blank values of lead fields are dropped. docs/field-mapping.md has the rules.
 */
export function mapSubmission(body: JsonObject, options: MapOptions = {}): MappedSubmission {
  const context = { now: options.now ?? new Date() };
  const warnings: FieldWarning[] = [];
  const clean = sanitizeJson(isJsonObject(body) ? body : {}, '', warnings) as JsonObject;
  const { byTarget, unknown } = groupEntries(clean);
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
    lead[field] = accepted.value;
    if (acceptedKey !== undefined) origins[field] = acceptedKey;
    extras.push(...Object.entries(accepted.extra ?? {}));
  }

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
  return { lead, custom_fields: custom.fields, warnings, control, origins };
}
