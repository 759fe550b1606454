import { isLeadField, LEAD_FIELDS } from './fields.ts';
import { defineOwn, sanitizeJson } from './sanitize.ts';
import type { FieldWarning, JsonObject, JsonValue, LeadFields, MappedSubmission } from './types.ts';

/**
 * Raw body → canonical lead, custom_fields and warnings. Pure: no I/O, never throws on a JSON
 * object. Nothing is lost: every key lands in `lead`, in `control` or in `custom_fields`.
 */
export function mapSubmission(body: JsonObject): MappedSubmission {
  const warnings: FieldWarning[] = [];
  const clean = sanitizeJson(body, '', warnings) as JsonObject;
  const lead: LeadFields = {};
  const custom: JsonObject = {};
  let listen = false;
  let idempotencyKey: JsonValue | undefined;

  const sent = clean.custom_fields;
  if (sent !== undefined) {
    if (sent !== null && typeof sent === 'object' && !Array.isArray(sent)) {
      for (const key of Object.keys(sent)) defineOwn(custom, key, sent[key] as JsonValue);
    } else {
      defineOwn(custom, 'custom_fields', sent);
      warn(warnings, 'custom_fields', 'INVALID_CUSTOM_FIELDS', 'custom_fields must be an object; kept as sent');
    }
  }

  for (const key of Object.keys(clean)) {
    const value = clean[key] as JsonValue;
    if (key === 'custom_fields') continue;
    if (key === 'listen') {
      listen = value === true || value === 'true' || value === 1 || value === '1';
      continue;
    }
    if (key === 'idempotency_key') {
      idempotencyKey = value;
      continue;
    }
    if (!isLeadField(key)) {
      defineOwn(custom, key, value);
      continue;
    }
    if (value === null || value === '') continue;
    const coerced = coerce(LEAD_FIELDS[key], value);
    if (coerced === undefined) {
      defineOwn(custom, key, value);
      warn(warnings, key, 'INVALID_VALUE', `${key} has an unusable value; kept in custom_fields`);
    } else lead[key] = coerced;
  }

  completeName(lead);
  return { lead, custom_fields: custom, warnings, control: { listen, idempotency_key: idempotencyKey } };
}

function coerce(kind: string, value: JsonValue): string | number | boolean | string[] | undefined {
  switch (kind) {
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
      return Number.isInteger(n) && n >= 18 && n <= 120 ? n : undefined;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|yes|y|1)$/i.test(value.trim())) return true;
      if (typeof value === 'string' && /^(false|no|n|0)$/i.test(value.trim())) return false;
      return undefined;
    case 'string[]':
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
      if (typeof value === 'string')
        return value
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
      return undefined;
    default:
      if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      return undefined;
  }
}

/** `name` alone splits at the first space; first + last alone give `name`. */
function completeName(lead: LeadFields): void {
  const name = typeof lead.name === 'string' ? lead.name : undefined;
  const first = typeof lead.first_name === 'string' ? lead.first_name : undefined;
  const last = typeof lead.last_name === 'string' ? lead.last_name : undefined;
  if (name && !first && !last) {
    const at = name.indexOf(' ');
    lead.first_name = at < 0 ? name : name.slice(0, at);
    if (at >= 0) lead.last_name = name.slice(at + 1).trim();
  } else if (!name && first) {
    lead.name = last ? `${first} ${last}` : first;
  }
}

function warn(warnings: FieldWarning[], field: string, code: string, message: string): void {
  warnings.push({ field, code, message });
}
