import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../json.ts';
import { readEnvelope } from './index.ts';

// Each adapter and each generic rule on the smallest body that shows it. The real-shaped fixtures,
// read back from the database, are in test/senders.test.ts.
const pairs = (body: JsonObject) => readEnvelope(body);

describe('readEnvelope: named adapters, recognised by structure', () => {
  it.each<[string, JsonObject, string]>([
    ['Meta field_data', { id: '1', field_data: [{ name: 'email', values: ['a@b.co'] }] }, 'meta_lead_ads'],
    [
      'Google user_column_data',
      { user_column_data: [{ column_id: 'EMAIL', string_value: 'a@b.co' }] },
      'google_ads_lead_form',
    ],
    ['Typeform form_response', { form_response: { answers: [] } }, 'typeform'],
    ['Unbounce data.json', { 'data.json': '{"email":["a@b.co"]}' }, 'unbounce'],
    ['Jotform rawRequest', { rawRequest: '{"q4_email":"a@b.co"}' }, 'jotform'],
    ['a list of {name, value}', { fields: [{ name: 'email', value: 'a@b.co' }] }, 'field_list'],
    ['a flat body', { email: 'a@b.co' }, 'flat'],
    ['field_data that is no list of named items', { field_data: 'x', email: 'a@b.co' }, 'flat'],
    ['data.json that is no JSON object', { 'data.json': '[1]', email: 'a@b.co' }, 'flat'],
  ])('When the body has %s, then the format is %s', (_label, body, format) => {
    expect(pairs(body).format).toBe(format);
  });

  it('Meta: values lists are unwrapped, the id is a leadgen_id hint, extra item members are kept', () => {
    expect(
      pairs({
        id: '99',
        field_data: [
          { name: 'full_name', values: ['Ann Lee'] },
          { name: 'pick_two', values: ['a', 'b'] },
          { name: 'tags', values: ['x'] },
          { name: 'odd', values: ['v'], note: 'n' },
        ],
      }).fields,
    ).toEqual([
      { key: 'full_name', value: 'Ann Lee' },
      { key: 'pick_two', value: ['a', 'b'] },
      { key: 'tags', value: ['x'] },
      { key: 'odd', value: 'v' },
      { key: 'odd.note', value: 'n' },
      { key: 'id', value: '99', hint: 'leadgen_id' },
    ]);
  });

  it('Google: a known column by id, REGION as state, a custom question by its label', () => {
    expect(
      pairs({
        lead_id: 'L1',
        user_column_data: [
          { column_name: 'User Phone', column_id: 'PHONE_NUMBER', string_value: '2145550100' },
          { column_name: 'Region', column_id: 'REGION', string_value: 'Texas' },
          { column_name: 'Budget per month?', column_id: 'QUESTION_7', string_value: '$40' },
        ],
      }).fields,
    ).toEqual([
      { key: 'PHONE_NUMBER', value: '2145550100' },
      { key: 'REGION', value: 'Texas', hint: 'state' },
      { key: 'Budget per month?', value: '$40' },
      { key: 'lead_id', value: 'L1', hint: 'leadgen_id' },
    ]);
  });

  it('Typeform: titles by field id, hints from the answer type and the ref, choices as labels', () => {
    const body: JsonObject = {
      form_response: {
        definition: {
          title: 'Quote',
          fields: [
            { id: 'a', title: 'Where do we send it?' },
            { id: 'b', title: 'Pick some' },
          ],
        },
        answers: [
          { type: 'email', email: 'a@b.co', field: { id: 'a', ref: 'r1' } },
          { type: 'choices', choices: { labels: ['x', 'y'], other: 'z' }, field: { id: 'b' } },
          { type: 'text', text: 'Dallas', field: { id: 'c', ref: 'city' } },
          { type: 'choice', choice: { label: 'Yes' }, field: { id: 'd' } },
          'not an object',
        ],
        hidden: { utm_source: 'fb' },
        token: 't',
      },
    };
    expect(pairs(body).fields).toEqual([
      { key: 'Where do we send it?', value: 'a@b.co', hint: 'email' },
      { key: 'Pick some', value: ['x', 'y', 'z'] },
      { key: 'city', value: 'Dallas', hint: 'city' },
      { key: 'd', value: 'Yes' },
      { key: 'answer', value: 'not an object' },
      { key: 'utm_source', value: 'fb' },
      { key: 'token', value: 't' },
      { key: 'form_title', value: 'Quote' },
    ]);
  });

  it('Jotform: the question number is dropped, {full} is its value, the other parts are kept', () => {
    expect(
      pairs({
        formID: '7',
        rawRequest: '{"q3_name":{"first":"A","last":"B"},"q5_phoneNumber":{"full":"214"},"q9_x":"y"}',
      }).fields,
    ).toEqual([
      { key: 'first', value: 'A' },
      { key: 'last', value: 'B' },
      { key: 'phoneNumber', value: '214' },
      { key: 'x', value: 'y' },
      { key: 'formID', value: '7' },
    ]);
  });
});

describe('readEnvelope: generic rules', () => {
  it.each<[string, JsonObject, Array<{ key: string; value: unknown }>]>([
    ['a one-element list is unwrapped', { 'First Name': ['Jane'] }, [{ key: 'First Name', value: 'Jane' }]],
    ['tags stay a list', { tags: ['vip'] }, [{ key: 'tags', value: ['vip'] }]],
    ['a longer list is kept', { pick: ['a', 'b'] }, [{ key: 'pick', value: ['a', 'b'] }]],
    ['a list holding an object is kept', { x: [{ a: 1 }] }, [{ key: 'x', value: [{ a: 1 }] }]],
    [
      'a person object gives up its named members',
      { Name: { first: 'A', middle: 'Q', last: 'B' } },
      [
        { key: 'first', value: 'A' },
        { key: 'last', value: 'B' },
        { key: 'Name', value: { middle: 'Q' } },
      ],
    ],
    ['an object naming no field is kept whole', { meta: { id: 5 } }, [{ key: 'meta', value: { id: 5 } }]],
    [
      'custom_fields is kept whole',
      { custom_fields: { email: 'x' } },
      [{ key: 'custom_fields', value: { email: 'x' } }],
    ],
    [
      'a JSON object text naming fields is read as members',
      { payload: '{"email":"a@b.co","x":1}' },
      [
        { key: 'email', value: 'a@b.co' },
        { key: 'x', value: 1 },
      ],
    ],
    ['a JSON text naming no field is kept as text', { blob: '{"x":1}' }, [{ key: 'blob', value: '{"x":1}' }]],
    [
      'pairs with type tags are read; pairs of records are not',
      {
        fields: [{ name: 'email', value: 'a@b.co', objectTypeId: '0-1' }],
        rows: [{ name: 'x', value: 1, qty: 2 }],
      },
      [
        { key: 'email', value: 'a@b.co' },
        { key: 'rows', value: [{ name: 'x', value: 1, qty: 2 }] },
      ],
    ],
  ])('When %s', (_label, body, expected) => {
    expect(pairs(body).fields).toEqual(expected);
  });

  it.each<[string, JsonObject, Array<{ key: string; value: unknown }>]>([
    [
      "an object that is no person, name or address group is kept whole, even where its members' names are aliases",
      { vendor_meta: { campaign: { id: 42, tags: ['a', 'b'] }, verified: true, email: 'x@y.co' } },
      [
        {
          key: 'vendor_meta',
          value: { campaign: { id: 42, tags: ['a', 'b'] }, verified: true, email: 'x@y.co' },
        },
      ],
    ],
    [
      'a group gives up its plain members only: an object or list under a field name stays in it',
      { applicant: { email: 'a@b.co', phone: ['1', '2'], campaign: { id: 1 } } },
      [
        { key: 'email', value: 'a@b.co' },
        { key: 'applicant', value: { phone: ['1', '2'], campaign: { id: 1 } } },
      ],
    ],
    [
      'a group inside a group gives up its members; what it keeps stays inside its parent',
      { applicant: { Name: { first: 'A', middle: 'Q', last: 'B' }, badge: 'x' } },
      [
        { key: 'first', value: 'A' },
        { key: 'last', value: 'B' },
        { key: 'applicant', value: { Name: { middle: 'Q' }, badge: 'x' } },
      ],
    ],
    [
      'an object inside a group that is no group stays inside it',
      { contact: { email: 'a@b.co', b: { phone: '1' } } },
      [
        { key: 'email', value: 'a@b.co' },
        { key: 'contact', value: { b: { phone: '1' } } },
      ],
    ],
    [
      'a group three levels down is kept whole inside its parents',
      { lead: { contact: { name: { first: 'A' } }, email: 'a@b.co' } },
      [
        { key: 'email', value: 'a@b.co' },
        { key: 'lead', value: { contact: { name: { first: 'A' } } } },
      ],
    ],
    [
      'a control member inside a group stays in it: listen and the key are read at the top only',
      { contact: { listen: true, idempotency_key: 'k', email: 'a@b.co' } },
      [
        { key: 'email', value: 'a@b.co' },
        { key: 'contact', value: { listen: true, idempotency_key: 'k' } },
      ],
    ],
    [
      'a group named in another spelling is a group',
      { 'Mailing Address': { City: 'Austin', ZIP: '73301' }, policyHolder: { dob: '1970-01-02' } },
      [
        { key: 'City', value: 'Austin' },
        { key: 'ZIP', value: '73301' },
        { key: 'dob', value: '1970-01-02' },
      ],
    ],
  ])('When %s', (_label, body, expected) => {
    expect(pairs(body).fields).toEqual(expected);
  });
});

describe('readEnvelope: limits and leftovers', () => {
  it('When JSON text in a field holds more members than a body may, then it is kept as text, not read', () => {
    const big = JSON.stringify({ email: 'a@b.co', list: Array.from({ length: 5_000 }, () => 0) });
    expect(pairs({ payload: big }).fields).toEqual([{ key: 'payload', value: big }]);
    const small = JSON.stringify({ email: 'a@b.co', list: [0] });
    expect(pairs({ payload: small }).fields).toEqual([
      { key: 'email', value: 'a@b.co' },
      { key: 'list', value: 0 },
    ]);
  });

  it('When a Google column or a Meta item carries other members, then they are kept under its name', () => {
    expect(
      pairs({
        user_column_data: [
          { column_id: 'FULL_NAME', string_value: 'Ann Lee', question_id: 'q9', value: 'ALT' },
        ],
      }).fields,
    ).toEqual([
      { key: 'FULL_NAME', value: 'Ann Lee' },
      { key: 'FULL_NAME.question_id', value: 'q9' },
      { key: 'FULL_NAME.value', value: 'ALT' },
    ]);
    expect(pairs({ field_data: [{ name: 'email', values: ['a@b.co'], value: 'other' }] }).fields).toEqual([
      { key: 'email', value: 'a@b.co' },
      { key: 'email.value', value: 'other' },
    ]);
  });
});
