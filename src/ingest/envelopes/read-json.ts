import { LIMITS } from '../../limits.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../../json.ts';

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
 * form field holding JSON): the object, or undefined when the text is not one. It is held to a
 * body's limits: nesting is checked before parsing, and an object of more than
 * LIMITS.maxBodyMembers members is not read (the text is kept as it is).
 */
export function jsonObjectText(value: JsonValue | undefined): JsonObject | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  if (bracketDepth(text) > LIMITS.maxJsonDepth) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isJsonObject(parsed)) return undefined;
    return countMembers(parsed, LIMITS.maxBodyMembers) <= LIMITS.maxBodyMembers ? parsed : undefined;
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

/**
 * The keys a JSON text names twice inside one object, each once, in the order first repeated:
 * JSON.parse keeps the last value and drops the others without a word. `text` must be valid JSON.
 */
export function duplicateKeys(text: string): string[] {
  const repeated = new Set<string>();
  // The keys seen in each open object; null for an open list.
  const open: Array<Set<string> | null> = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = i + 1;
      let escaped = false;
      for (; text.charCodeAt(end) !== 0x22; end++) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end++;
        }
      }
      const keys = open[open.length - 1];
      if (keyNext && keys) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (keys.has(key)) repeated.add(key);
        else keys.add(key);
        keyNext = false;
      }
      i = end;
    } else if (c === 0x7b) {
      open.push(new Set());
      keyNext = true;
    } else if (c === 0x5b) {
      open.push(null);
      keyNext = false;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      keyNext = false;
    } else if (c === 0x2c) keyNext = Boolean(open[open.length - 1]);
  }
  return [...repeated];
}

/** Keys and list items at every level, counted without recursion; stops counting past `limit`. */
export function countMembers(value: JsonValue, limit = Infinity): number {
  let count = 0;
  const stack: JsonValue[] = [value];
  for (let next = stack.pop(); next !== undefined && count <= limit; next = stack.pop()) {
    if (next === null || typeof next !== 'object') continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    count += children.length;
    // One at a time: spreading a list of 100,000 items into push() overflows the call stack.
    for (const child of children) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return count;
}
