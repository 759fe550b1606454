import type { JsonObject } from '../../json.ts';

/**
 * One generation of a scheduler's webhook payloads that is not the current one: how to tell it by
 * its structure, and how to turn its envelope into the current shape (docs/booking-events.md,
 * section 2), which the rest of src/booking-events reads. Pure data-like functions: no I/O, no
 * clock, never throwing on any JSON object.
 */
export interface PayloadGeneration {
  /** Short name; also the prefix of the keys it makes (`calendly-v1:<uuid>`). */
  name: string;
  /** Whether the envelope is of this generation, told by its structure (schedulers send no version). */
  recognises(body: JsonObject): boolean;
  /** The same envelope in the current shape; envelope members other than `payload` are kept as sent. */
  toCurrent(body: JsonObject): JsonObject;
}
