import type { LeadFieldName } from '../fields.ts';
import type { JsonObject, JsonValue } from '../../json.ts';

/** One field/value pair read out of a body, before names are resolved. */
export interface FlatField {
  key: string;
  value: JsonValue;
  /**
   * What the envelope itself says the value is (a Typeform `email` answer, a Meta lead's `id`), used
   * only when the key names no field by itself, at alias rank.
   */
  hint?: LeadFieldName;
}

/** A body read by an adapter: which format it was, and its fields in body order. */
export interface Envelope {
  format: string;
  fields: FlatField[];
}

/**
 * A named adapter: a format recognised by the structure of its body (never by a header a sender may
 * not set), and how it flattens into field/value pairs.
 */
export interface Adapter {
  format: string;
  matches(body: JsonObject): boolean;
  read(body: JsonObject): FlatField[];
}
