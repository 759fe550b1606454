import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject, type JsonObject, type JsonValue } from '../../json.ts';
import { readEnvelope } from './index.ts';
import { jsonObjectText } from './read-json.ts';

// Adapters never throw and never lose a value: every leaf of the body ends up in a pair, as a
// value or as the name of one (a question title, a pair's name). The documented exceptions are
// labels and ids of questions (Google's column_name/column_id, Typeform's definition, an answer's
// field and type), Unbounce's data.xml, the same submission again, and Google's google_key, the
// webhook's credential, kept nowhere.
const RUNS = { numRuns: 400 };
const LABELS = new Set(['column_name', 'column_id', 'definition', 'field', 'data.xml', 'google_key']);

const text = fc.oneof(fc.string(), fc.constantFrom('Jane', 'a@b.co', '2145550100', 'TX', ''));
const leaf: fc.Arbitrary<JsonValue> = fc.oneof(text, fc.integer(), fc.boolean());
const fieldName = fc.oneof(
  fc.constantFrom('first_name', 'email', 'phone_number', 'zip_code', 'city', 'tags', 'custom_fields', 'id'),
  fc.string({ minLength: 1 }),
);
const pairList = (name: string, value: string) =>
  fc.array(
    fc.record({
      [name]: fieldName,
      [value]: fc.oneof(leaf, fc.array(leaf, { maxLength: 3 })),
    }) as fc.Arbitrary<JsonObject>,
    { minLength: 1, maxLength: 6 },
  );
const generic = fc.dictionary(fieldName, fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>, {
  maxKeys: 8,
});

const bodies: fc.Arbitrary<JsonObject> = fc.oneof(
  generic,
  fc.record({ id: text, field_data: pairList('name', 'values'), ad_id: text }),
  fc.record({
    lead_id: text,
    google_key: text,
    user_column_data: fc.array(
      fc.record({
        column_id: fc.constantFrom('FULL_NAME', 'EMAIL', 'REGION', 'QUESTION_1', 'X'),
        column_name: text,
        string_value: text,
      }),
      { maxLength: 5 },
    ),
  }),
  fc.record({ fields: pairList('name', 'value'), context: fc.record({ ipAddress: text, pageUri: text }) }),
  fc.record({
    form_response: fc.record({
      definition: fc.record({ fields: fc.array(fc.record({ id: fc.constantFrom('a', 'b'), title: text })) }),
      answers: fc.array(
        fc.oneof(
          fc.record({
            type: fc.constant('text'),
            text: leaf,
            field: fc.record({ id: fc.constantFrom('a', 'b', 'c') }),
          }),
          fc.record({ type: fc.constant('email'), email: text, field: fc.record({ ref: text }) }),
          fc.record({ type: fc.constant('choice'), choice: fc.record({ label: text }) }),
          leaf,
        ),
      ),
      hidden: fc.dictionary(fieldName, leaf, { maxKeys: 3 }),
      token: text,
    }),
  }),
  generic.map((inner) => ({ 'data.json': JSON.stringify(inner), 'data.xml': '<x/>', page_id: 'p' })),
  generic.map((inner) => ({ rawRequest: JSON.stringify(inner), formID: '1' })),
  fc.record({
    Name: fc.record({ first: text, last: text, middle: text }),
    Address: fc.record({ city: text, country: text }),
  }),
  fc.dictionary(fieldName, fc.array(leaf, { minLength: 1, maxLength: 1 }), { maxKeys: 6 }),
);

/** Every scalar leaf of a value, as text; JSON object texts by their own leaves. */
function inputLeaves(value: JsonValue, out: string[] = []): string[] {
  const embedded = jsonObjectText(value);
  if (embedded) return inputLeaves(embedded, out);
  if (Array.isArray(value)) for (const item of value) inputLeaves(item, out);
  else if (isJsonObject(value)) {
    // A Typeform answer's `type` names the member that holds its value.
    const typed = typeof value.type === 'string' && Object.hasOwn(value, value.type);
    for (const key of Object.keys(value))
      if (!LABELS.has(key) && !(typed && key === 'type')) inputLeaves(value[key] as JsonValue, out);
  } else if (value !== null) out.push(String(value));
  return out;
}

/** Every scalar leaf and every key of a value, as text. */
function outputLeaves(value: JsonValue, out: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) outputLeaves(item, out);
  else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) {
      out.add(key);
      outputLeaves(value[key] as JsonValue, out);
    }
  } else if (value !== null) out.add(String(value));
}

describe('readEnvelope properties', () => {
  it('When given any JSON object, then it never throws', () => {
    fc.assert(
      fc.property(fc.oneof(bodies, fc.object() as fc.Arbitrary<JsonObject>), (body) => {
        readEnvelope(body);
      }),
      RUNS,
    );
  });

  it('When given a body in any recognised shape, then every leaf ends up in a pair', () => {
    fc.assert(
      fc.property(bodies, (body) => {
        const { fields } = readEnvelope(body);
        const kept = new Set<string>();
        for (const { key, value } of fields) {
          kept.add(key);
          outputLeaves(value, kept);
        }
        for (const item of inputLeaves(body))
          expect(kept.has(item), `${JSON.stringify(item)} lost`).toBe(true);
      }),
      RUNS,
    );
  });
});
