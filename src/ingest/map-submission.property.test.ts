import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_ALIASES } from './tables/aliases.ts';
import { readEnvelope } from './envelopes/index.ts';
import { compactKey, foldKey, resolveAppendedField, resolveFieldName } from './field-names.ts';
import { FIELD_GROUPS } from './tables/field-groups.ts';
import { isLeadField, LEAD_FIELDS } from './fields.ts';
import { mapSubmission } from './map-submission.ts';
import { normalizeBoolean } from './normalize/boolean.ts';
import { normalizerFor } from './normalize/index.ts';
import { isBlank } from './normalize/result.ts';
import { sanitizeJson, stripUnstorable } from './sanitize.ts';
import { defineOwn, isJsonObject, type JsonObject, type JsonValue } from '../json.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const RUNS = { numRuns: 500 };

const namedKeys = [
  ...Object.keys(LEAD_FIELDS),
  ...Object.values(FIELD_ALIASES).flat(),
  ...['listen', 'Listen', 'idempotency_key', 'Idempotency-Key', 'custom_fields', 'customFields'],
  ...['First Name', 'firstName', 'LAST_NAME', 'E-mail', 'Phone #', 'ZipCode', 'D.O.B.', 'x (body)'],
  ...['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'],
];
const keyArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...namedKeys) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
);

/** Objects built with defineOwn, so `__proto__` is a real own key as after JSON.parse. */
function objectOf(value: fc.Arbitrary<JsonValue>, maxKeys: number): fc.Arbitrary<JsonObject> {
  return fc.array(fc.tuple(keyArb, value), { maxLength: maxKeys }).map((entries) => {
    const obj: JsonObject = {};
    for (const [key, v] of entries) defineOwn(obj, key, v);
    return obj;
  });
}

const likelyValues: JsonValue[] = [
  ...[
    '',
    ' ',
    null,
    'Ada Lovelace',
    'Cher',
    ' Mary  Jane ',
    '(213) 373-4253 x9',
    '+1 416 555 0199',
    '555-1234',
  ],
  ...['5/4/1980', '2015-01-01', '1980-02-30', '45', '45.0', 15, 45, 'yes', 'N', 'maybe', 'F', 'male', 'x'],
  ...[
    'FE',
    'vets',
    'auto',
    'vip, hot,VIP',
    ',',
    'D.C.',
    'Texas',
    '02134-1234',
    2134,
    'ADA@EXAMPLE.COM',
    'a@',
  ],
  ...[['a', 1, null], [{ a: 1 }], { nested: { deeper: [1, 'two'] } }, true, false, 0, 1, 250000, -1.5],
];
const valueArb: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...likelyValues) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue> },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: objectOf(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>, 4) },
);
const bodyArb = objectOf(valueArb, 14);

/** Kept under the key itself or a collision-suffixed form of it (`key (body)`, `key (body 2)`, …). */
function keptInCustom(custom: JsonObject, key: string, value: JsonValue): boolean {
  return Object.keys(custom).some(
    (k) => (k === key || k.startsWith(`${key} (body`)) && isDeepStrictEqual(custom[k], value),
  );
}

/** The documented exception to "nothing is lost": blank values of lead fields, listen and custom_fields. */
function droppedAsBlank(target: string, value: JsonValue): boolean {
  if (target === 'idempotency_key') return false;
  if (isBlank(value)) return true;
  if (!isLeadField(target)) return false;
  const result = normalizerFor(target)(value, { now: NOW });
  return result.ok && (result.value === '' || (Array.isArray(result.value) && result.value.length === 0));
}

function asListen(value: JsonValue): boolean {
  const result = normalizeBoolean(value);
  return result.ok && result.value;
}

describe('mapSubmission properties', () => {
  it('When given any JSON object, then it never throws', () => {
    fc.assert(
      fc.property(fc.oneof(bodyArb, fc.object() as fc.Arbitrary<JsonObject>), (body) => {
        mapSubmission(body, { now: NOW });
      }),
      RUNS,
    );
  });

  it('When given any body, then every pair its envelope gives ends up in lead, control or custom_fields', () => {
    fc.assert(
      fc.property(bodyArb, (body) => {
        const { lead, custom_fields: custom, control } = mapSubmission(body, { now: NOW });
        // Compared with the sanitized pairs: NUL and lone surrogates are removed by design, with a warning.
        // (envelopes.property.test.ts checks that the pairs hold every value of the body.)
        const pairs = readEnvelope(body).fields.map((f) => ({
          ...f,
          key: stripUnstorable(f.key),
          value: sanitizeJson(f.value),
        }));
        for (const { key, value, hint } of pairs) {
          const line = resolveFieldName(key) ? undefined : resolveAppendedField(key);
          if (line !== undefined) {
            const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
            const appended = typeof lead[line] === 'string' && text !== '' && lead[line].endsWith(text);
            expect(appended || text === '' || keptInCustom(custom, key, value), `line ${key} lost`).toBe(
              true,
            );
            continue;
          }
          const target = resolveFieldName(key)?.target ?? hint;
          if (target !== undefined && droppedAsBlank(target, value)) continue;
          if (target === 'custom_fields' && isJsonObject(value)) {
            for (const k of Object.keys(value)) expect(keptInCustom(custom, k, value[k] ?? null)).toBe(true);
            continue;
          }
          if (keptInCustom(custom, key, value)) continue;
          // Not kept aside, so this key must be the one its field took its value from.
          expect(target, `key ${JSON.stringify(key)} was lost`).toBeDefined();
          if (target === 'idempotency_key') expect(control.idempotency_key).toEqual(value);
          else if (target === 'listen') expect(control.listen).toBe(asListen(value));
          else if (target && isLeadField(target)) {
            const result = normalizerFor(target)(value, { now: NOW });
            expect(result.ok, `invalid ${JSON.stringify(key)} was not kept`).toBe(true);
            const stored = lead[target];
            if (result.ok && typeof stored === 'string' && typeof result.value === 'string')
              expect(stored.startsWith(result.value)).toBe(true); // second lines are appended
            else if (result.ok) expect(stored).toEqual(result.value);
          }
        }
      }),
      RUNS,
    );
  });

  it('When the mapped lead is mapped again, then the same lead comes out with nothing set aside', () => {
    fc.assert(
      fc.property(bodyArb, (body) => {
        const first = mapSubmission(body, { now: NOW });
        const again = mapSubmission(first.lead as JsonObject, { now: NOW });
        expect(again.lead).toEqual(first.lead);
        expect(again.custom_fields).toEqual({});
        expect(again.warnings.filter((w) => w.field !== 'age')).toEqual([]);
      }),
      RUNS,
    );
  });

  it('When an object sits under a key that names no field or group, then custom_fields holds it exactly as sent', () => {
    const groupNames = Object.values(FIELD_GROUPS).flat();
    const groups = groupNames.flatMap((g) => [g, g.toUpperCase(), g.replaceAll('_', ' ')]);
    const nestedKey = fc.oneof(fc.constantFrom(...namedKeys, ...groups), fc.string());
    const { value: nestedValue } = fc.letrec<{ value: JsonValue }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.array(fc.tuple(nestedKey, tie('value')), { maxLength: 5 }).map((entries) => {
          const obj: JsonObject = {};
          for (const [key, v] of entries) defineOwn(obj, key, v);
          return obj;
        }),
      ),
    }));
    const unknownKey = fc
      .oneof(fc.constantFrom('vendor_meta', 'meta', 'tracking', 'extra', 'data'), fc.string({ minLength: 1 }))
      .filter(
        (key) =>
          resolveFieldName(key) === undefined &&
          resolveAppendedField(key) === undefined &&
          !groupNames.some((g) => compactKey(foldKey(g)) === compactKey(foldKey(key))),
      );
    const objectArb = nestedValue.filter(isJsonObject);
    fc.assert(
      fc.property(unknownKey, objectArb, (key, sent) => {
        const body: JsonObject = { name: 'Ann Lee' };
        defineOwn(body, key, sent);
        const { custom_fields } = mapSubmission(body, { now: NOW });
        expect(Object.hasOwn(custom_fields, key)).toBe(true);
        // As text: member order kept too, and rebuilt objects' prototypes aside.
        expect(JSON.stringify(custom_fields[key])).toBe(JSON.stringify(sent));
      }),
      RUNS,
    );
  });
});
