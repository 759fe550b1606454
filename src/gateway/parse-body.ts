import { LIMITS } from '../config.ts';
import { defineOwn, isJsonObject, type JsonObject, type JsonValue } from '../json.ts';

export type ParsedBody = { ok: true; body: JsonObject } | { ok: false; details: string };

const NOT_AN_OBJECT = 'The body must be a JSON object';

/**
 * Reads a delivery body. Whatever the Content-Type says it is parsed as JSON (senders that cannot
 * set headers send text/plain), except application/x-www-form-urlencoded, which is a form.
 * Pure: never throws.
 */
export function parseDeliveryBody(raw: Buffer | undefined, contentType: string | undefined): ParsedBody {
  const text = raw ? raw.toString('utf8').replace(/^\uFEFF/, '') : '';
  if (text.trim() === '') return { ok: false, details: `${NOT_AN_OBJECT}; the body is empty` };
  if (/^\s*application\/x-www-form-urlencoded\b/i.test(contentType ?? ''))
    return { ok: true, body: parseForm(text) };
  if (nestingDepth(text) > LIMITS.maxJsonDepth) {
    return { ok: false, details: `JSON nested deeper than ${LIMITS.maxJsonDepth} levels` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, details: err instanceof Error ? err.message : 'Unparseable JSON' };
  }
  if (!isJsonObject(value)) return { ok: false, details: NOT_AN_OBJECT };
  return { ok: true, body: value };
}

/** Deepest bracket nesting outside strings, counted without recursion before parsing. */
export function nestingDepth(text: string): number {
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
 * A form body: repeated keys become arrays, `a[b]=c` becomes `{a: {b: "c"}}` (one level), so
 * `custom_fields[join_url]=…` and `tags=a&tags=b` work from plain HTML forms.
 */
export function parseForm(text: string): JsonObject {
  const out: JsonObject = {};
  const put = (target: JsonObject, key: string, value: string) => {
    const existing = Object.hasOwn(target, key) ? target[key] : undefined;
    if (existing === undefined) defineOwn(target, key, value);
    else if (Array.isArray(existing)) existing.push(value);
    else defineOwn(target, key, [existing, value] as JsonValue);
  };
  for (const [key, value] of new URLSearchParams(text)) {
    const nested = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    if (nested?.[1] && nested[2]) {
      const outer = nested[1];
      const current = Object.hasOwn(out, outer) ? out[outer] : undefined;
      if (current === undefined) defineOwn(out, outer, {});
      const target = out[outer];
      if (isJsonObject(target)) put(target, nested[2], value);
      else put(out, key, value);
    } else put(out, nested?.[1] && nested[2] === '' ? nested[1] : key, value);
  }
  return out;
}
