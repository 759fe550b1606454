import { describe, expect, it } from 'vitest';
import { mapSubmission } from './map-submission.ts';
import type { JsonObject, JsonValue } from '../json.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const map = (body: JsonObject) => mapSubmission(body, { now: NOW });

describe('mapSubmission: what the gateway relies on', () => {
  it.each<[JsonValue, boolean]>([
    [true, true],
    ['true', true],
    [1, true],
    ['1', true],
    ['yes', true],
    [false, false],
    ['false', false],
    [0, false],
  ])('When listen is %j, then control.listen is %s', (listen, expected) => {
    expect(map({ name: 'Ada', listen }).control.listen).toBe(expected);
  });

  it('When listen is absent, then control.listen is false', () => {
    expect(map({ name: 'Ada' }).control).toEqual({ listen: false, idempotency_key: undefined });
  });

  it.each<[JsonValue, boolean]>([
    [true, true],
    [1, true],
    ['1', true],
    ['TRUE', true],
    ['yes', true],
    ['on', true], // an HTML checkbox named listen
    [false, false],
    [0, false],
    ['off', false],
    ['no', false],
    ['', false],
  ])('When listen is %j, then Listen mode is %s, with no warning', (listen, expected) => {
    const out = map({ name: 'Ada', listen });
    expect(out.control.listen).toBe(expected);
    expect(out.warnings).toEqual([]);
    expect(out.custom_fields).toEqual({});
  });

  it('When listen is not a boolean, then it is false, kept and flagged', () => {
    const out = map({ name: 'Ada', listen: 'maybe' });
    expect(out.control.listen).toBe(false);
    expect(out.custom_fields).toEqual({ listen: 'maybe' });
    expect(out.warnings).toEqual([expect.objectContaining({ field: 'listen', code: 'INVALID_BOOLEAN' })]);
  });

  it.each<JsonValue>(['abc', 42, null, '', { a: 1 }])(
    'When idempotency_key is %j, then it is passed on raw',
    (key) => {
      expect(map({ name: 'Ada', idempotency_key: key }).control.idempotency_key).toEqual(key);
    },
  );

  it('When the body spells it Idempotency-Key, then it is the idempotency key', () => {
    const out = map({ name: 'Ada', 'Idempotency-Key': 'k1', idempotency_key: 'k0' });
    expect(out.control.idempotency_key).toBe('k0');
    expect(out.custom_fields).toEqual({ 'Idempotency-Key': 'k1' });
  });

  it('When only name is sent, then it is split; when only first and last are sent, name is built', () => {
    expect(map({ name: '  Ada   Lovelace ' }).lead).toEqual({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(map({ firstName: 'Ada', 'Last Name': 'Lovelace' }).lead.name).toBe('Ada Lovelace');
  });

  it('When a value holds NUL characters, then they are removed with a warning', () => {
    const out = map({ name: 'Ada\u0000 Lovelace' });
    expect(out.lead.name).toBe('Ada Lovelace');
    expect(out.warnings).toEqual([
      expect.objectContaining({ field: 'name', code: 'UNSTORABLE_CHARACTERS_REMOVED' }),
    ]);
  });
});

describe('mapSubmission: names and aliases', () => {
  it('When fields use other spellings and aliases, then they land on the canonical fields', () => {
    const out = map({
      'First Name': 'Ada',
      LAST_NAME: 'Lovelace',
      cell: '(213) 373-4253',
      'E-mail': 'ADA@EXAMPLE.COM',
      zip: '02134',
      dob: '05/04/1980',
      coverage_requested: 250000,
    });
    expect(out.lead).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '2133734253',
      email: 'ada@example.com',
      zipcode: '02134',
      date_of_birth: '1980-05-04',
      age: 45,
      coverage_amount: '250000',
    });
    expect(out.custom_fields).toEqual({});
    expect(out.warnings).toEqual([]);
  });

  it('When the canonical field and an alias are both sent, then the canonical wins and the alias is kept', () => {
    const out = map({ name: 'Ada', cell: '213-373-4253', phone: '310-555-0100' });
    expect(out.lead.phone).toBe('3105550100');
    expect(out.custom_fields).toEqual({ cell: '213-373-4253' });
    expect(out.warnings).toEqual([]);
  });

  it('When two aliases of one field are sent, then the first in body order wins', () => {
    const out = map({ name: 'Ada', mobile: '213-373-4253', cell: '310-555-0100' });
    expect(out.lead.phone).toBe('2133734253');
    expect(out.custom_fields).toEqual({ cell: '310-555-0100' });
  });

  it('When the exact name and another spelling are both sent, then the exact name wins', () => {
    const out = map({ Email: 'b@example.com', email: 'a@example.com', name: 'Ada' });
    expect(out.lead.email).toBe('a@example.com');
    expect(out.custom_fields).toEqual({ Email: 'b@example.com' });
  });

  it('When the canonical value is invalid but an alias is valid, then the alias fills the field', () => {
    const out = map({ name: 'Ada', phone: '12345', cell: '213-373-4253' });
    expect(out.lead.phone).toBe('2133734253');
    expect(out.custom_fields).toEqual({ phone: '12345' });
    expect(out.warnings).toEqual([expect.objectContaining({ field: 'phone', code: 'INVALID_PHONE' })]);
  });

  it('When the canonical value is blank, then an alias fills the field and the blank is dropped', () => {
    const out = map({ name: 'Ada', phone: '  ', cell: '213-373-4253' });
    expect(out.lead.phone).toBe('2133734253');
    expect(out.custom_fields).toEqual({});
  });
});

describe('mapSubmission: custom_fields', () => {
  it('When fields are unknown, then they are kept under their original names, untouched', () => {
    const body: JsonObject = {
      name: 'Ada',
      'Favorite Color': ' Blue ',
      meta: { a: [1, null] },
      source: 'fb',
    };
    expect(map(body).custom_fields).toEqual({
      'Favorite Color': ' Blue ',
      meta: { a: [1, null] },
      source: 'fb',
    });
  });

  it("When the sender's custom_fields and a top-level field share a key, then both are kept", () => {
    const out = map({
      name: 'Ada',
      promo: 'top-level',
      custom_fields: { promo: 'nested', join_url: 'https://meet.example/x', setter_id: 7 },
    });
    expect(out.custom_fields).toEqual({
      promo: 'nested',
      join_url: 'https://meet.example/x',
      setter_id: 7,
      'promo (body)': 'top-level',
    });
  });

  it('When custom_fields is not an object, then it is kept as sent with INVALID_TYPE', () => {
    const out = map({ name: 'Ada', customFields: 'oops' });
    expect(out.custom_fields).toEqual({ customFields: 'oops' });
    expect(out.warnings).toEqual([expect.objectContaining({ field: 'custom_fields', code: 'INVALID_TYPE' })]);
  });

  it('When keys are __proto__ or constructor, then they are plain keys and no prototype changes', () => {
    const body = JSON.parse(
      '{"name":"Ada","__proto__":{"admin":true},"constructor":"x","custom_fields":{"__proto__":{"y":1}}}',
    ) as JsonObject;
    const out = map(body);
    expect(Object.keys(out.custom_fields).sort()).toEqual(['__proto__', '__proto__ (body)', 'constructor']);
    expect(Object.getPrototypeOf(out.custom_fields)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('When the phone has an extension, then it is kept as phone_extension', () => {
    const out = map({ name: 'Ada', phone: '213-373-4253 ext. 12' });
    expect(out.lead.phone).toBe('2133734253');
    expect(out.custom_fields).toEqual({ phone_extension: '12' });
  });
});

describe('mapSubmission: invalid and blank values', () => {
  it.each<[string, JsonValue, string, string]>([
    ['phone', '555-1234', 'phone', 'INVALID_PHONE'],
    ['email', 'ada@', 'email', 'INVALID_EMAIL'],
    ['state', 'Narnia', 'state', 'INVALID_STATE'],
    ['Zip', '1234', 'zipcode', 'INVALID_ZIPCODE'],
    ['age', 15, 'age', 'INVALID_AGE'],
    ['DOB', '02/30/1980', 'date_of_birth', 'INVALID_DATE'],
    ['gender', 'x', 'gender', 'INVALID_GENDER'],
    ['category', 'auto', 'lead_category', 'INVALID_ENUM'],
    ['smoker', 'sometimes', 'smoker', 'INVALID_BOOLEAN'],
    ['tags', { a: 1 }, 'tags', 'INVALID_TAGS'],
    ['notes', ['a', 'b'], 'notes', 'INVALID_TYPE'],
  ])(
    'When %s is %j, then %s stays empty, the raw value is kept and %s is raised',
    (key, value, field, code) => {
      const out = map({ name: 'Ada', [key]: value });
      expect(out.lead[field]).toBeUndefined();
      expect(out.custom_fields).toEqual({ [key]: value });
      expect(out.warnings).toEqual([{ field, code, message: expect.stringContaining(`"${key}"`) as string }]);
    },
  );

  it('When lead fields are null, empty or whitespace, then they are dropped without a warning', () => {
    const out = map({ name: 'Ada', phone: '', email: null, city: '   ', tags: ' , ', mystery: '' });
    expect(out.lead).toEqual({ name: 'Ada', first_name: 'Ada' });
    expect(out.custom_fields).toEqual({ mystery: '' });
    expect(out.warnings).toEqual([]);
  });

  it('When the date of birth gives an age under 18, then age stays empty with a warning', () => {
    const out = map({ name: 'Ada', date_of_birth: '2015-06-01' });
    expect(out.lead.date_of_birth).toBe('2015-06-01');
    expect(out.lead.age).toBeUndefined();
    expect(out.warnings).toEqual([expect.objectContaining({ field: 'age', code: 'INVALID_AGE' })]);
  });

  it('When no "now" is given, then today is used for the date-of-birth checks', () => {
    expect(mapSubmission({ name: 'Ada', dob: '2999-01-01' }).warnings[0]?.code).toBe('INVALID_DATE');
  });
});

describe('mapSubmission: real senders’ names', () => {
  it.each<[string, JsonObject, Record<string, unknown>]>([
    [
      'TrustedForm’s own name',
      { xxTrustedFormCertUrl: 'https://cert.trustedform.com/a' },
      { consent_cert_url: 'https://cert.trustedform.com/a' },
    ],
    [
      'trustedform_cert_url',
      { trustedform_cert_url: 'https://cert.trustedform.com/b' },
      { consent_cert_url: 'https://cert.trustedform.com/b' },
    ],
    ['Jornaya’s leadid_token', { leadid_token: 'ABC-1' }, { consent_token: 'ABC-1' }],
    ['Jornaya’s universal_leadid', { universal_leadid: 'ABC-2' }, { consent_token: 'ABC-2' }],
    [
      'fbclid, _fbc and _fbp',
      { fbclid: 'IwAR', _fbc: 'fb.1.c', _fbp: 'fb.1.p' },
      { socialclid: 'IwAR', socialc: 'fb.1.c', socialp: 'fb.1.p' },
    ],
    ['fbc and fbp', { fbc: 'fb.2.c', fbp: 'fb.2.p' }, { socialc: 'fb.2.c', socialp: 'fb.2.p' }],
    ['zip5 and postal', { zip5: '75201' }, { zipcode: '75201' }],
    ['cell_phone_number', { cell_phone_number: '214-555-0100' }, { phone: '2145550100' }],
    ['phone_1', { phone_1: '214-555-0101' }, { phone: '2145550101' }],
    ['“do you use tobacco?”', { 'Do you use tobacco?': 'yes' }, { smoker: true }],
    ['tobacco_user', { tobacco_user: 'N' }, { smoker: false }],
    ['a question label', { 'What is your email?': 'q@example.com' }, { email: 'q@example.com' }],
    [
      '“Please enter your phone number”',
      { 'Please enter your phone number': '2145550102' },
      { phone: '2145550102' },
    ],
  ])('When a sender uses %s, then the field is filled', (_label, body, fields) => {
    const out = map({ name: 'Ada', ...body });
    expect(out.lead).toMatchObject(fields);
    expect(out.custom_fields).toEqual({});
  });

  it('When the Jornaya token has any spelling, then its value is kept unchanged', () => {
    expect(map({ name: 'Ada', leadid_token: ' 7F3a-Mixed-Case ' }).lead.consent_token).toBe(
      '7F3a-Mixed-Case',
    );
  });

  it('When a home phone comes before a cell, then the cell is the phone and the home phone is kept', () => {
    const out = map({ name: 'Ada', home_phone: '214-555-0199', cell: '214-555-0100' });
    expect(out.lead.phone).toBe('2145550100');
    expect(out.custom_fields).toEqual({ home_phone: '214-555-0199' });
  });

  it('When only a home phone is sent, then it is the phone', () => {
    expect(map({ name: 'Ada', home_phone: '214-555-0199' }).lead.phone).toBe('2145550199');
  });

  it('When a second address line is sent, then it is appended to the address; alone, it is kept', () => {
    expect(
      map({ name: 'Ada', address2: 'Apt 4', address: '1 Main St', address_2: ' Bldg C ' }).lead.address,
    ).toBe('1 Main St, Apt 4, Bldg C');
    const alone = map({ name: 'Ada', 'Address Line 2': 'Apt 4' });
    expect(alone.lead.address).toBeUndefined();
    expect(alone.custom_fields).toEqual({ 'Address Line 2': 'Apt 4' });
    const odd = map({ name: 'Ada', address: '1 Main St', address_2: { unit: 4 } });
    expect(odd.lead.address).toBe('1 Main St');
    expect(odd.custom_fields).toEqual({ address_2: { unit: 4 } });
  });

  it('When an envelope hints what a value is, then the hint fills the field only when the name does not', () => {
    const hinted = mapSubmission(
      { form_response: { answers: [{ type: 'email', email: 'h@example.com', field: { id: 'x' } }] } },
      { now: NOW },
    );
    expect(hinted.lead.email).toBe('h@example.com');
    const named = mapSubmission(
      {
        id: 'L-9',
        field_data: [
          { name: 'leadgen_id', values: ['L-1'] },
          { name: 'full_name', values: ['Ann'] },
        ],
      },
      { now: NOW },
    );
    expect(named.lead.leadgen_id).toBe('L-1');
    expect(named.custom_fields).toEqual({ id: 'L-9' });
  });

  it('When a body is read by an adapter, then the format says which', () => {
    expect(map({ name: 'Ada' }).format).toBe('flat');
    expect(map({ field_data: [{ name: 'full_name', values: ['Ann'] }] }).format).toBe('meta_lead_ads');
  });

  it('When a wrapped value holds NUL characters, then they are removed with a warning, key and value', () => {
    const out = map({
      field_data: [
        { name: 'full_name', values: ['An\u0000n'] },
        { name: 'x\u0000y', values: ['v'] },
      ],
    });
    expect(out.lead.name).toBe('Ann');
    expect(out.custom_fields).toEqual({ xy: 'v' });
    expect(out.warnings.map((w) => [w.field, w.code])).toEqual([
      ['full_name', 'UNSTORABLE_CHARACTERS_REMOVED'],
      ['xy', 'UNSTORABLE_CHARACTERS_REMOVED'],
    ]);
  });
});
