import { Type, type Static, type TSchema } from 'typebox';
import { LIMITS } from '../../limits.ts';

/** The building blocks of the admin API's route schemas. */

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description ? { description } : {}) });

/** A path id: a UUID as PostgreSQL reads it (the `uuid` format would also pass `urn:uuid:…`). */
export const UuidParam = (description: string) =>
  Type.String({
    format: 'uuid',
    pattern: '^[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$',
    description,
  });

export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/** `schema`, or null: one `type` list rather than `anyOf`, so a failure names the field once. */
export function Nullable<T extends TSchema>(schema: T, extra: Record<string, unknown> = {}) {
  const plain = { ...(schema as Record<string, unknown>) };
  const enumOf = Array.isArray(plain.enum) ? { enum: [...(plain.enum as unknown[]), null] } : {};
  return Type.Unsafe<Static<T> | null>({ ...plain, type: [plain.type, 'null'], ...enumOf, ...extra });
}

/**
 * Text a person types and the database stores: not blank, without NUL or unpaired surrogates
 * (PostgreSQL text holds neither). Handlers trim it.
 */
export const STORABLE_TEXT = '^(?=[\\s\\S]*\\S)[^\\u0000\\uD800-\\uDFFF]*$';
/** The same, blank allowed (search text, where blank means no search). */
export const STORABLE = '^[^\\u0000\\uD800-\\uDFFF]*$';

export const Text = (max: number = LIMITS.nameMaxLength, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: STORABLE_TEXT,
    ...(description ? { description } : {}),
  });

/** `{key: [item, …]}`, the shape of every list answer. */
export const ListOf = <K extends string, T extends TSchema>(key: K, item: T) =>
  Type.Object({ [key]: Type.Array(item) } as { [P in K]: ReturnType<typeof Type.Array<T>> });

/** A 204 answer: no body (`type: null` is what tells the OpenAPI document so). */
export const NoContent = (description: string) => Type.Unsafe<undefined>({ type: 'null', description });

/** One of `values`, as a plain JSON Schema enum (what the OpenAPI document shows). */
export const Enum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** A whole number written in a query string (empty: not given). */
export const DIGITS = '^\\d*$';
