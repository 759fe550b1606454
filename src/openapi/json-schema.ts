/** A JSON Schema or OpenAPI object, as plain data. */
export type Json = Record<string, unknown>;

/** A reference to a schema of the document's components. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
