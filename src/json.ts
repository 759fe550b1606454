/**
 * JSON as senders send it, the one guard for "is this a JSON object", and the one reading of a
 * value as text. Every folder may import this file; it imports nothing.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * A value as text: a non-empty string, else null. Stored and mapped fields are already trimmed, so
 * this never trims; a number or a boolean is no text.
 */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A plain JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The object's own member `key`, or undefined: a body key such as `constructor` or `__proto__` is
 * data, never something inherited from Object.prototype. Every reader of untrusted JSON goes
 * through it.
 */
export function own(obj: JsonObject | null, key: string): JsonValue | undefined {
  return obj !== null && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets an own enumerable property, even for `__proto__`. */
export function defineOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` is an accessor on Object.prototype; every other key can be assigned, which is
  // many times faster than defineProperty on this hot path.
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else obj[key] = value;
}
