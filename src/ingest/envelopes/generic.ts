import { compactKey, foldKey, resolveAppendedField, resolveFieldName } from '../field-names.ts';
import { FIELD_GROUPS } from '../tables/field-groups.ts';
import { defineOwn, isJsonObject, own, type JsonObject, type JsonValue } from '../../json.ts';
import { jsonObjectText, textOf } from './read-json.ts';
import type { FlatField } from './types.ts';

/** Members that name a pair in a list of `{name, value}` objects, in the order they are tried. */
const PAIR_NAMES = ['name', 'key', 'field', 'column_id', 'label', 'title'] as const;
/** Members that hold a pair's value. */
const PAIR_VALUES = ['value', 'values', 'string_value', 'answer'] as const;

/** Other members a pair may have: labels and type tags of the pair, not values of the lead. */
const PAIR_LABELS = new Set<string>([...PAIR_NAMES, 'column_name', 'objectTypeId', 'id', 'type']);

/** The request-level object a sender fills itself: kept whole, never flattened. */
const KEPT_WHOLE = new Set(['custom_fields']);

/** How deep a group may sit and still give its members to the lead (`applicant: {Name: {first}}`). */
const GROUP_DEPTH = 2;

const GROUPS = new Set(Object.values(FIELD_GROUPS).flatMap((names) => names.map(compactKey)));

/**
 * The generic rules, for any body: a list of `{name|key|field|column_id|label|title,
 * value|values|string_value|answer}` objects becomes its pairs (HubSpot's `fields`); a one-element
 * list is unwrapped (`"First Name": ["Jane"]`); a person, name or address group (`Name: {first,
 * last}`) gives up its plain members that name lead fields, the others staying under its key, and
 * any other object is kept whole; a JSON object written as text in a field (what a form post
 * carries) is read as members of the body. Every value ends up in a pair: nothing is dropped.
 */
export function flattenGeneric(body: JsonObject, depth = 0): FlatField[] {
  const out: FlatField[] = [];
  for (const key of Object.keys(body)) flattenEntry(key, body[key] as JsonValue, out, depth);
  return out;
}

export function flattenEntry(key: string, value: JsonValue, out: FlatField[], depth = 0): void {
  if (KEPT_WHOLE.has(key)) {
    out.push({ key, value });
    return;
  }
  if (Array.isArray(value)) {
    const pairs = depth < 2 ? readPairs(value) : undefined;
    if (pairs) {
      for (const pair of pairs) flattenEntry(pair.key, pair.value, out, depth + 1);
      return;
    }
    out.push({ key, value: unwrapSingle(key, value) });
    return;
  }
  if (isJsonObject(value)) {
    const group = liftGroup(key, value, depth);
    if (!group) out.push({ key, value });
    else {
      out.push(...group.lifted);
      if (Object.keys(group.kept).length > 0) out.push({ key, value: group.kept });
    }
    return;
  }
  const embedded = depth < 1 ? jsonObjectText(value) : undefined;
  if (embedded && namesLeadFields(embedded)) {
    out.push(...flattenGeneric(embedded, depth + 1));
    return;
  }
  out.push({ key, value });
}

/** The pairs of a list whose every item is a `{name, value}` object; undefined when it is not such a list. */
export function readPairs(list: JsonValue[]): Array<{ key: string; value: JsonValue }> | undefined {
  if (list.length === 0) return undefined;
  const pairs: Array<{ key: string; value: JsonValue }> = [];
  for (const item of list) {
    if (!isJsonObject(item)) return undefined;
    const nameKey = PAIR_NAMES.find((member) => textOf(own(item, member)) !== undefined);
    const valueKey = PAIR_VALUES.find((member) => own(item, member) !== undefined);
    if (nameKey === undefined || valueKey === undefined) return undefined;
    const members = Object.keys(item).filter((member) => member !== nameKey && member !== valueKey);
    // A pair with more members than labels and type tags is a record, not a pair: the list is kept as sent.
    if (members.some((member) => !PAIR_LABELS.has(member))) return undefined;
    const value = item[valueKey] as JsonValue;
    pairs.push({ key: String(item[nameKey]), value: Array.isArray(value) ? unwrapAny(value) : value });
  }
  return pairs;
}

/** A one-element list of a plain value is that value, except for `tags`, which is a list. */
export function unwrapSingle(key: string, list: JsonValue[]): JsonValue {
  if (list.length !== 1 || resolveFieldName(key)?.target === 'tags') return list;
  return unwrapAny(list);
}

function unwrapAny(list: JsonValue[]): JsonValue {
  const [only] = list;
  return list.length === 1 && only !== undefined && !isJsonObject(only) && !Array.isArray(only) ? only : list;
}

/**
 * A person, name or address group (its key is in tables/field-groups.ts) gives the lead its members
 * that name a lead field and hold a plain value, and those of a group inside it; what is left stays
 * under its key, as sent. Undefined when the object is no group or gives nothing: kept whole.
 */
function liftGroup(
  key: string,
  obj: JsonObject,
  depth: number,
): { lifted: FlatField[]; kept: JsonObject } | undefined {
  if (depth >= GROUP_DEPTH || !GROUPS.has(compactKey(foldKey(key)))) return undefined;
  const lifted: FlatField[] = [];
  const kept: JsonObject = {};
  for (const member of Object.keys(obj)) {
    const value = obj[member] as JsonValue;
    const inner = isJsonObject(value) ? liftGroup(member, value, depth + 1) : undefined;
    if (inner) {
      lifted.push(...inner.lifted);
      if (Object.keys(inner.kept).length > 0) defineOwn(kept, member, inner.kept);
    } else if (isPlain(value) && namesLeadField(member)) lifted.push({ key: member, value });
    else defineOwn(kept, member, value);
  }
  return lifted.length > 0 ? { lifted, kept } : undefined;
}

function isPlain(value: JsonValue): boolean {
  return value === null || typeof value !== 'object';
}

/** A lead field, not a control one: `listen` or a key inside a group never steers the submission. */
function namesLeadField(key: string): boolean {
  const target = resolveFieldName(key)?.target;
  return (
    (target !== undefined &&
      target !== 'custom_fields' &&
      target !== 'listen' &&
      target !== 'idempotency_key') ||
    resolveAppendedField(key) !== undefined
  );
}

function namesField(key: string): boolean {
  const resolved = resolveFieldName(key);
  return (
    (resolved !== undefined && resolved.target !== 'custom_fields') || resolveAppendedField(key) !== undefined
  );
}

/** An object with at least one member naming a lead field: worth reading as a lead. */
export function namesLeadFields(obj: JsonObject): boolean {
  return Object.keys(obj).some(namesField);
}
