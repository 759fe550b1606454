import { chooseValue } from './choose-value.ts';
import { normalizeBoolean } from './normalize/boolean.ts';
import { isBlank } from './normalize/result.ts';
import type { Entry, GroupedEntries, Pending } from './choose-value.ts';
import type { CustomFieldsBuilder } from './custom-fields.ts';
import type { NormalizeContext } from './normalize/result.ts';
import type { MappedSubmission } from './types.ts';
import { isJsonObject } from '../json.ts';

/**
 * Reads the request-level fields. The sender's `custom_fields` objects are written into `custom`
 * here, before anything else, so their keys keep their plain names. Losing or unusable control
 * values are queued on `pending` to be kept like any other.
 */
export function readControl(
  byTarget: GroupedEntries['byTarget'],
  custom: CustomFieldsBuilder,
  pending: Pending[],
  context: NormalizeContext,
): MappedSubmission['control'] {
  for (const entry of byTarget.get('custom_fields') ?? []) mergeSenderFields(entry, custom, pending);

  const listen = chooseValue('listen', byTarget.get('listen') ?? [], normalizeBoolean, context);
  pending.push(...listen.rest);

  // The key is passed on raw, whatever its type: the gateway validates it and answers 400 itself.
  const [key, ...others] = byTarget.get('idempotency_key') ?? [];
  pending.push(...others.map((entry) => ({ entry })));

  return { listen: listen.accepted?.value === true, idempotency_key: key?.value };
}

function mergeSenderFields(entry: Entry, custom: CustomFieldsBuilder, pending: Pending[]): void {
  const { value } = entry;
  if (isBlank(value)) return;
  if (isJsonObject(value)) {
    for (const key of Object.keys(value)) custom.put(key, value[key] ?? null);
    return;
  }
  pending.push({
    entry,
    invalid: { field: 'custom_fields', code: 'INVALID_TYPE', expected: 'an object of extra fields' },
  });
}
