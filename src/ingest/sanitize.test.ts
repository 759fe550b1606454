import { describe, expect, it } from 'vitest';
import { sanitizeJson } from './sanitize.ts';
import type { FieldWarning } from './types.ts';
import type { JsonObject } from '../json.ts';

describe('sanitizeJson', () => {
  it('When an object is copied, then its key order is kept at every depth', () => {
    const body: JsonObject = { b: 1, a: { z: 1, y: [1, { d: 1, c: 2 }] }, c: 'x' };
    const copy = sanitizeJson(body) as JsonObject;
    expect(JSON.stringify(copy)).toBe(JSON.stringify(body));
  });

  it('When NUL or a lone surrogate is removed, then one warning names the top-level field', () => {
    const warnings: FieldWarning[] = [];
    const copy = sanitizeJson({ notes: 'a\u0000b', nested: { x: ['\ud800ok', 'fine'] } }, '', warnings);
    expect(copy).toEqual({ notes: 'ab', nested: { x: ['ok', 'fine'] } });
    expect(warnings.map((w) => [w.field, w.code])).toEqual([
      ['notes', 'UNSTORABLE_CHARACTERS_REMOVED'],
      ['nested', 'UNSTORABLE_CHARACTERS_REMOVED'],
    ]);
  });

  it('When two keys become equal after cleaning, then both values are kept', () => {
    const copy = sanitizeJson({ a: 1, 'a\u0000': 2 }) as JsonObject;
    expect(copy).toEqual({ a: 1, 'a (2)': 2 });
  });

  it('When a key is __proto__, then it stays an own key of the copy', () => {
    const copy = sanitizeJson(JSON.parse('{"__proto__": {"x": 1}}') as JsonObject) as JsonObject;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});
