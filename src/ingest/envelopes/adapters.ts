import { resolveFieldName } from '../field-names.ts';
import type { LeadFieldName } from '../fields.ts';
import { isJsonObject, own, type JsonObject, type JsonValue } from '../../json.ts';
import { flattenEntry, flattenGeneric, readPairs, unwrapSingle } from './generic.ts';
import { jsonObjectText, rest, textOf } from './read-json.ts';
import type { Adapter, FlatField } from './types.ts';

/** Generic pairs for every member of `obj` but `skip`, with a hint for the members in `hints`. */
function others(
  obj: JsonObject,
  skip: readonly string[],
  hints: Readonly<Record<string, LeadFieldName>> = {},
): FlatField[] {
  const out: FlatField[] = [];
  for (const [key, value] of rest(obj, skip)) {
    const hint = Object.hasOwn(hints, key) ? hints[key] : undefined;
    if (hint && textOf(value) !== undefined) out.push({ key, value, hint });
    else flattenEntry(key, value, out);
  }
  return out;
}

/**
 * Meta (Facebook/Instagram) Lead Ads, a lead as the Graph API returns it: `field_data: [{name,
 * values}]` beside the lead's `id` (which fills `leadgen_id`), ad, form and campaign members.
 */
const metaLeadAds: Adapter = {
  format: 'meta_lead_ads',
  matches: (body) => {
    const list = own(body, 'field_data');
    return (
      Array.isArray(list) &&
      list.length > 0 &&
      list.every((item) => isJsonObject(item) && own(item, 'name') !== undefined)
    );
  },
  read: (body) => {
    const out: FlatField[] = [];
    for (const item of own(body, 'field_data') as JsonObject[]) {
      const member = own(item, 'values') !== undefined ? 'values' : 'value';
      const values = own(item, member) ?? null;
      const key = String(own(item, 'name'));
      const extra = rest(item, ['name', member]);
      flattenEntry(key, Array.isArray(values) ? unwrapSingle(key, values) : values, out, 1);
      // Anything else an item carries is kept under the field's name.
      for (const [member, value] of extra) out.push({ key: `${key}.${member}`, value });
    }
    return [...out, ...others(body, ['field_data'], { id: 'leadgen_id' })];
  },
};

/** Whether a body is a Google Ads lead-form webhook's: `user_column_data`, a list of objects. */
export function isGoogleLeadForm(body: JsonObject): boolean {
  const list = own(body, 'user_column_data');
  return Array.isArray(list) && list.every((item) => isJsonObject(item));
}

/** Google Ads column ids whose meaning no alias can carry (`REGION` is the state of a US lead). */
const GOOGLE_COLUMNS: Readonly<Record<string, LeadFieldName>> = { REGION: 'state' };

/**
 * Google Ads lead-form webhooks: `user_column_data: [{column_id, column_name, string_value}]`. A
 * standard column is read by its id (`PHONE_NUMBER`); a custom question by its label. The
 * platform's `lead_id` fills `leadgen_id`.
 */
const googleAdsLeadForm: Adapter = {
  format: 'google_ads_lead_form',
  matches: (body) => isGoogleLeadForm(body),
  read: (body) => {
    const out: FlatField[] = [];
    for (const item of own(body, 'user_column_data') as JsonObject[]) {
      const id = textOf(own(item, 'column_id'));
      const label = textOf(own(item, 'column_name'));
      const member = own(item, 'string_value') !== undefined ? 'string_value' : 'value';
      const value = own(item, member) ?? null;
      const hint = id !== undefined && Object.hasOwn(GOOGLE_COLUMNS, id) ? GOOGLE_COLUMNS[id] : undefined;
      const byId = id !== undefined && (hint !== undefined || resolveFieldName(id) !== undefined);
      const key = (byId ? id : (label ?? id)) ?? 'column';
      out.push(hint ? { key, value, hint } : { key, value });
      // Anything else an item carries is kept under the column's name.
      for (const [extra, kept] of rest(item, ['column_id', 'column_name', member]))
        out.push({ key: `${key}.${extra}`, value: kept });
    }
    // `google_key` is the webhook's credential, not the lead's: it is kept nowhere.
    return [...out, ...others(body, ['user_column_data', 'google_key'], { lead_id: 'leadgen_id' })];
  },
};

/** What a Typeform answer of each type holds, and the field an answer of that type fills. */
const TYPEFORM_HINTS: Readonly<Record<string, LeadFieldName>> = { email: 'email', phone_number: 'phone' };

/**
 * Typeform webhooks: `form_response.answers[]`, each labelled by the question title found in
 * `form_response.definition.fields[]` (by field id; else the field's `ref`). Hidden fields
 * (`hidden`, often the UTM parameters) and the response's own ids are kept as pairs.
 */
const typeform: Adapter = {
  format: 'typeform',
  matches: (body) => {
    const response = own(body, 'form_response');
    return isJsonObject(response) && Array.isArray(own(response, 'answers'));
  },
  read: (body) => {
    const response = own(body, 'form_response') as JsonObject;
    const definition = own(response, 'definition');
    const titles = new Map<string, string>();
    const definedFields = isJsonObject(definition) ? own(definition, 'fields') : undefined;
    for (const field of Array.isArray(definedFields) ? definedFields : []) {
      if (!isJsonObject(field)) continue;
      const id = textOf(own(field, 'id'));
      const title = textOf(own(field, 'title'));
      if (id !== undefined && title !== undefined) titles.set(id, title);
    }
    const out: FlatField[] = [];
    for (const answer of own(response, 'answers') as JsonValue[]) {
      if (!isJsonObject(answer)) {
        out.push({ key: 'answer', value: answer });
        continue;
      }
      const field = isJsonObject(own(answer, 'field')) ? (own(answer, 'field') as JsonObject) : {};
      const id = textOf(own(field, 'id'));
      const ref = textOf(own(field, 'ref'));
      const type = textOf(own(answer, 'type'));
      const key = (id !== undefined ? titles.get(id) : undefined) ?? ref ?? id ?? type ?? 'answer';
      const value = typeformValue(answer, type);
      const hint =
        (ref !== undefined ? toLeadField(resolveFieldName(ref)?.target) : undefined) ??
        (type !== undefined && Object.hasOwn(TYPEFORM_HINTS, type) ? TYPEFORM_HINTS[type] : undefined);
      out.push(hint ? { key, value, hint } : { key, value });
    }
    const hidden = own(response, 'hidden');
    if (isJsonObject(hidden)) out.push(...flattenGeneric(hidden, 1));
    const kept = others(response, ['answers', 'definition', 'hidden']);
    const formTitle = isJsonObject(definition) ? textOf(own(definition, 'title')) : undefined;
    if (formTitle !== undefined) kept.push({ key: 'form_title', value: formTitle });
    return [...out, ...kept, ...others(body, ['form_response'])];
  },
};

function toLeadField(target: string | undefined): LeadFieldName | undefined {
  return target === undefined ||
    target === 'listen' ||
    target === 'idempotency_key' ||
    target === 'custom_fields'
    ? undefined
    : (target as LeadFieldName);
}

/** A Typeform answer's value: the member named by its type (`text`, `email`, `choice` …), choices as labels. */
function typeformValue(answer: JsonObject, type: string | undefined): JsonValue {
  const value = type !== undefined ? own(answer, type) : undefined;
  if (value === undefined) {
    const others = rest(answer, ['type', 'field']);
    return others.length === 1 ? (others[0]?.[1] ?? null) : Object.fromEntries(others);
  }
  if (isJsonObject(value) && (type === 'choice' || type === 'choices')) {
    const labels = own(value, 'labels');
    const picked: JsonValue[] = Array.isArray(labels) ? [...labels] : [];
    const label = own(value, 'label');
    if (label !== undefined) picked.push(label);
    const other = own(value, 'other');
    if (other !== undefined) picked.push(other);
    return picked.length === 1 ? (picked[0] ?? null) : picked;
  }
  return value;
}

/**
 * Unbounce's default form post: everything inside the `data.json` field as JSON text, each value a
 * list. `data.xml` holds the same submission again as XML and is not kept when `data.json` was read.
 */
const unbounce: Adapter = {
  format: 'unbounce',
  matches: (body) => jsonObjectText(own(body, 'data.json')) !== undefined,
  read: (body) => [
    ...flattenGeneric(jsonObjectText(own(body, 'data.json')) ?? {}, 1),
    ...others(body, ['data.json', 'data.xml']),
  ],
};

/**
 * Jotform webhooks (multipart/form-data): the submission is the JSON text of `rawRequest`, keyed
 * `q<N>_<name>` (`q3_name: {first, last}`, `q5_phoneNumber: {full}`); the question number is
 * dropped from the name. The other parts (form id and title, submission id, the sender's IP) are kept.
 */
const jotform: Adapter = {
  format: 'jotform',
  matches: (body) => jsonObjectText(own(body, 'rawRequest')) !== undefined,
  read: (body) => {
    const submission = jsonObjectText(own(body, 'rawRequest')) ?? {};
    const out: FlatField[] = [];
    for (const [sent, value] of rest(submission, [])) {
      const key = sent.replace(/^q\d+_/, '');
      const full = isJsonObject(value) ? textOf(own(value, 'full')) : undefined;
      if (full !== undefined && Object.keys(value as JsonObject).length === 1) out.push({ key, value: full });
      else flattenEntry(key, value, out, 1);
    }
    return [...out, ...others(body, ['rawRequest'])];
  },
};

/** The named adapters, tried in order before the generic rules. */
export const ADAPTERS: readonly Adapter[] = [metaLeadAds, googleAdsLeadForm, typeform, unbounce, jotform];

/** A body that is a list of pairs at its top level (HubSpot's `fields`) is reported as `field_list`. */
export function isFieldList(body: JsonObject): boolean {
  return Object.keys(body).some((key) => {
    const value = body[key];
    return Array.isArray(value) && readPairs(value) !== undefined;
  });
}
