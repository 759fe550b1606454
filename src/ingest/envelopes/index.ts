import type { JsonObject } from '../../json.ts';
import { ADAPTERS, isFieldList } from './adapters.ts';
import { flattenGeneric } from './generic.ts';
import type { Envelope } from './types.ts';

export type { Envelope, FlatField } from './types.ts';

/**
 * A body → its format and its field/value pairs, before any name is resolved: the first named
 * adapter whose structure matches, else the generic rules (`flat`, or `field_list` when the body
 * carries lists of `{name, value}` pairs). Pure; never throws on a JSON object.
 */
export function readEnvelope(body: JsonObject): Envelope {
  const adapter = ADAPTERS.find((candidate) => candidate.matches(body));
  if (adapter) return { format: adapter.format, fields: adapter.read(body) };
  return { format: isFieldList(body) ? 'field_list' : 'flat', fields: flattenGeneric(body) };
}
