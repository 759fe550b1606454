import { LIMITS } from '../../config.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../../json.ts';

/** The object's own member `key`, or undefined (a `__proto__` key is data, never inherited). */
export function own(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** A member as a non-blank string or a finite number written in decimal; else undefined. */
export function textOf(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The own members of `obj` except `skip`, in body order. */
export function rest(obj: JsonObject, skip: readonly string[]): Array<[string, JsonValue]> {
  return Object.keys(obj)
    .filter((key) => !skip.includes(key))
    .map((key) => [key, obj[key] as JsonValue]);
}

/**
 * A JSON object written as text inside a field (Unbounce's `data.json`, Jotform's `rawRequest`, a
 * form field holding JSON): the object, or undefined when the text is not one. Nesting is checked
 * before parsing, under the same limit as a body.
 */
export function jsonObjectText(value: JsonValue | undefined): JsonObject | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  if (bracketDepth(text) > LIMITS.maxJsonDepth) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Deepest bracket nesting outside strings, counted without recursion before parsing. */
export function bracketDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}
