import type { JsonObject } from '../../json.ts';
import { calendlyV1 } from './calendly-v1.ts';
import type { PayloadGeneration } from './generation.ts';

/**
 * The older payload generations the gateway still reads, tried in this order; the first that
 * recognises an envelope turns it into the current shape. Adding a generation is adding a module
 * beside this one and naming it here.
 */
export const GENERATIONS: readonly PayloadGeneration[] = [calendlyV1];

/** The envelope in the current shape: as sent when no older generation recognises it. Pure. */
export function toCurrentGeneration(body: JsonObject): JsonObject {
  return readGeneration(body).body;
}

/**
 * The envelope in the current shape and the format it came in, as leads and samples record it
 * (`body_format`): `calendly` for the current generation, else the generation's name (`calendly_v1`).
 */
export function readGeneration(sent: JsonObject): { body: JsonObject; format: string } {
  const generation = GENERATIONS.find((candidate) => candidate.recognises(sent));
  if (!generation) return { body: sent, format: 'calendly' };
  return { body: generation.toCurrent(sent), format: generation.name.replaceAll('-', '_') };
}
