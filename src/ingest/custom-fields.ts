import { defineOwn, type JsonObject, type JsonValue } from '../json.ts';

/**
 * The custom_fields object being built. Keys are never overwritten: the first writer keeps a key,
 * and a later value for the same key is stored as `key (body)`, then `key (body 2)`, … so that
 * nothing a sender sent is lost. The mapper writes the sender's own custom_fields object first, so
 * its keys keep their plain names and a colliding top-level field is the one suffixed.
 */
export interface CustomFieldsBuilder {
  readonly fields: JsonObject;
  /** Stores `value` and returns the key it was stored under. */
  put(key: string, value: JsonValue): string;
}

export function createCustomFields(): CustomFieldsBuilder {
  const fields: JsonObject = {};
  // Where the search for a free suffix resumes, per key: a body of many same-named pairs (a list
  // of {name, value} with one name repeated) stays linear.
  const nextSuffix = new Map<string, number>();
  return {
    fields,
    put(key, value) {
      let stored = key;
      let n = Object.hasOwn(fields, key) ? (nextSuffix.get(key) ?? 1) : 1;
      for (; Object.hasOwn(fields, stored); n += 1) {
        stored = n === 1 ? `${key} (body)` : `${key} (body ${n})`;
      }
      nextSuffix.set(key, n);
      defineOwn(fields, stored, value);
      return stored;
    },
  };
}
