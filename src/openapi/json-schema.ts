/** A JSON Schema or OpenAPI object, as plain data. */
export type Json = Record<string, unknown>;

/** A reference to a schema of the document's components. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

export const uuid: Json = { type: 'string', format: 'uuid' };
export const dateTime: Json = { type: 'string', format: 'date-time' };

/** A type, or a schema, that may also be null: `nullable('string')`, `nullable(dateTime)`. */
export const nullable = (schema: string | Json): Json =>
  typeof schema === 'string' ? { type: [schema, 'null'] } : { ...schema, type: [schema.type, 'null'] };

/** An object with one required array of `item`s under `key`, and `extra` required properties. */
export const list = (key: string, item: string, extra: Record<string, Json> = {}): Json => ({
  type: 'object',
  required: [key, ...Object.keys(extra)],
  properties: { [key]: { type: 'array', items: ref(item) }, ...extra },
});
