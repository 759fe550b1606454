import type { FieldWarning, JsonValue } from './types.ts';

// NUL and unpaired UTF-16 surrogates: PostgreSQL text and jsonb cannot hold them.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function stripUnstorable(value: string): string {
  return value.replace(UNSTORABLE, '');
}

/**
 * Returns a copy of `value` that PostgreSQL can store, with a warning per field whose keys or
 * strings lost characters. Objects are rebuilt with own properties only (defineProperty), so a
 * `__proto__` or `constructor` key stays an ordinary key and never touches a prototype.
 * Iterative, so depth never costs stack.
 */
export function sanitizeJson(value: JsonValue, field = '', warnings: FieldWarning[] = []): JsonValue {
  const flagged = new Set<string>();
  const flag = (path: string) => {
    const top = path || field || 'body';
    if (flagged.has(top)) return;
    flagged.add(top);
    warnings.push({
      field: top,
      code: 'UNSTORABLE_CHARACTERS_REMOVED',
      message: 'NUL characters or unpaired surrogates were removed from this value',
    });
  };
  const clean = (s: string, path: string) => {
    const out = stripUnstorable(s);
    if (out !== s) flag(path);
    return out;
  };

  const rootHolder: { v: JsonValue } = { v: null };
  const stack: Array<{ src: JsonValue; set: (v: JsonValue) => void; path: string }> = [
    { src: value, set: (v) => (rootHolder.v = v), path: field },
  ];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const { src, set, path } = item;
    if (typeof src === 'string') set(clean(src, path));
    else if (Array.isArray(src)) {
      const arr: JsonValue[] = new Array<JsonValue>(src.length).fill(null);
      set(arr);
      src.forEach((el, i) => stack.push({ src: el, set: (v) => (arr[i] = v), path }));
    } else if (src !== null && typeof src === 'object') {
      const obj: { [key: string]: JsonValue } = {};
      set(obj);
      for (const key of Object.keys(src)) {
        const topPath = path || key;
        const cleanKey = clean(key, topPath);
        stack.push({
          src: src[key] as JsonValue,
          set: (v) => defineOwn(obj, cleanKey, v),
          path: topPath,
        });
      }
    } else set(src);
  }
  return rootHolder.v;
}

/** Sets an own enumerable property, even for `__proto__`. */
export function defineOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
