import { isJsonObject, own, type JsonObject, type JsonValue } from '../json.ts';

// Helpers to read untrusted webhook JSON. Every read goes through `own`, so a body key such as
// `constructor` or `__proto__` is data, never something inherited from Object.prototype.

export function asObject(value: JsonValue | undefined): JsonObject | null {
  return isJsonObject(value) ? value : null;
}

/** The member `key` when it is an object, else null. */
export function objectAt(obj: JsonObject | null, key: string): JsonObject | null {
  return asObject(own(obj, key));
}

/**
 * A member as text: a trimmed non-blank string, or a finite number written in decimal (some form
 * builders type phone numbers as numbers). Anything else is no text.
 */
export function text(value: JsonValue | undefined): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A member that tells something: not absent, not null, not a blank string. */
function isPresent(value: JsonValue | undefined): value is JsonValue {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/**
 * Reads invitee members from either envelope shape: the mapping table nests them under
 * `payload.invitee`, the sample envelope (and Calendly) puts them directly under `payload`. A
 * present member of `payload.invitee` wins; a missing one falls back to `payload`, so a partial
 * `invitee` object loses nothing.
 */
export function inviteeReader(payload: JsonObject): (key: string) => JsonValue | undefined {
  const nested = objectAt(payload, 'invitee');
  return (key) => {
    const inner = own(nested, key);
    return isPresent(inner) ? inner : own(payload, key);
  };
}

/** true, "true" and "1" (any case, trimmed) and 1: the spellings senders use for a flag. */
export function isTrueFlag(value: JsonValue | undefined): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && ['true', '1'].includes(value.trim().toLowerCase());
}
