import type { FieldWarning } from './types.ts';
import { defineOwn, isJsonObject, type JsonObject, type JsonValue } from '../json.ts';

// NUL and unpaired UTF-16 surrogates: PostgreSQL text and jsonb cannot hold them.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `value` without NUL and unpaired surrogates; most strings have neither, and are returned as they are. */
export function stripUnstorable(value: string): string {
  return value.isWellFormed() && !value.includes('\u0000') ? value : value.replace(UNSTORABLE, '');
}

/** A container of the copy still to be filled from its source. */
interface Job {
  src: JsonValue[] | JsonObject;
  dst: JsonValue[] | JsonObject;
  /** The top-level key the container sits under ('' for the root), named in warnings. */
  path: string;
}

/**
 * Returns a copy of `value` that PostgreSQL can store, with a warning per field whose keys or
 * strings lost characters. Objects are rebuilt with own properties only, so a `__proto__` or
 * `constructor` key stays an ordinary key and never touches a prototype. Key order is kept, and
 * two keys that become equal once cleaned are both kept (`a`, `a (2)`). Iterative, so depth
 * never costs stack.
 */
export function sanitizeJson(value: JsonValue, field = '', warnings: FieldWarning[] = []): JsonValue {
  const flagged = new Set<string>();
  const clean = (s: string, path: string) => {
    const out = stripUnstorable(s);
    if (out !== s) flagged.add(path || field || 'body');
    return out;
  };
  const jobs: Job[] = [];
  const copy = (src: JsonValue, path: string): JsonValue => {
    if (typeof src === 'string') return clean(src, path);
    if (src === null || typeof src !== 'object') return src;
    const dst = Array.isArray(src) ? [] : {};
    jobs.push({ src, dst, path });
    return dst;
  };

  const root = copy(value, field);
  for (let job = jobs.pop(); job; job = jobs.pop()) {
    const { src, dst, path } = job;
    if (Array.isArray(src)) {
      const arr = dst as JsonValue[];
      for (const item of src) arr.push(copy(item, path));
      continue;
    }
    const obj = dst as JsonObject;
    for (const key of Object.keys(src)) {
      const topPath = path || key;
      defineOwn(obj, freeKey(obj, clean(key, topPath)), copy(src[key] as JsonValue, topPath));
    }
  }

  // One warning per field, in body order (the copy above visits nested values out of order).
  const order = [field || 'body', ...(isJsonObject(value) ? Object.keys(value) : [])];
  for (const top of order) {
    if (!flagged.has(top)) continue;
    flagged.delete(top);
    warnings.push({
      field: top,
      code: 'UNSTORABLE_CHARACTERS_REMOVED',
      message: 'NUL characters or unpaired surrogates were removed from this value',
    });
  }
  return root;
}

/** Two keys that differ only by removed characters must not overwrite each other: `a (2)`, `a (3)`, … */
function freeKey(obj: object, key: string): string {
  let free = key;
  for (let n = 2; Object.hasOwn(obj, free); n += 1) free = `${key} (${n})`;
  return free;
}
