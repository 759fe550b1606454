import { describe, expect, it } from 'vitest';
import { APPENDED_ALIASES, FIELD_ALIASES } from './tables/aliases.ts';
import { buildNameIndex, foldKey, resolveAppendedField, resolveFieldName } from './field-names.ts';

describe('foldKey', () => {
  it.each<[string, string]>([
    ['first_name', 'first_name'],
    ['First Name', 'first_name'],
    ['firstName', 'first_name'],
    ['FirstName', 'first_name'],
    ['first-name', 'first_name'],
    ['FIRST_NAME', 'first_name'],
    ['first.name', 'first_name'],
    ['  first   name  ', 'first_name'],
    ['Idempotency-Key', 'idempotency_key'],
    ['IPAddress', 'ip_address'],
    ['utmSource', 'utm_source'],
    ['address1', 'address1'],
    ['Address Line 1', 'address_line_1'],
    ['Phone #', 'phone'],
    ['E-mail:', 'e_mail'],
    ['D.O.B.', 'd_o_b'],
    ['__proto__', 'proto'],
    ['Ünïcode Ñame', 'ünïcode_ñame'],
    ['---', ''],
  ])('When the key is %j, then it folds to %j', (key, folded) => {
    expect(foldKey(key)).toBe(folded);
  });
});

describe('resolveFieldName', () => {
  it.each<[string, string, number]>([
    ['phone', 'phone', 0],
    ['Phone', 'phone', 1],
    ['PHONE', 'phone', 1],
    ['First Name', 'first_name', 1],
    ['firstname', 'first_name', 1],
    ['Idempotency-Key', 'idempotency_key', 1],
    ['customFields', 'custom_fields', 1],
    ['Listen', 'listen', 1],
    ['E-mail', 'email', 1],
    ['ZipCode', 'zipcode', 1],
    ['zip_code', 'zipcode', 1],
    ['lastname', 'last_name', 1],
    ...(
      [
        ['cell', 'phone'],
        ['Cell Phone', 'phone'],
        ['cellphone', 'phone'],
        ['mobile', 'phone'],
        ['mobile_phone', 'phone'],
        ['phone_number', 'phone'],
        ['PhoneNumber', 'phone'],
        ['primary_phone', 'phone'],
        ['telephone', 'phone'],
        ['tel', 'phone'],
        ['coverage_requested', 'coverage_amount'],
        ['zip', 'zipcode'],
        ['postal_code', 'zipcode'],
        ['postcode', 'zipcode'],
        ['dob', 'date_of_birth'],
        ['D.O.B.', 'date_of_birth'],
        ['birthdate', 'date_of_birth'],
        ['birth_date', 'date_of_birth'],
        ['birthday', 'date_of_birth'],
        ['fname', 'first_name'],
        ['first', 'first_name'],
        ['lname', 'last_name'],
        ['surname', 'last_name'],
        ['last', 'last_name'],
        ['full_name', 'name'],
        ['fullname', 'name'],
        ['contact_name', 'name'],
        ['email_address', 'email'],
        ['street', 'address'],
        ['street_address', 'address'],
        ['address1', 'address'],
        ['address_1', 'address'],
        ['tz', 'appointment_timezone'],
        ['timezone', 'appointment_timezone'],
        ['time_zone', 'appointment_timezone'],
        ['appointment_at', 'scheduled_at'],
        ['appointment_datetime', 'scheduled_at'],
        ['category', 'lead_category'],
        ['lead_type', 'lead_category'],
        ['sms_opt_in', 'sms_consent'],
        ['SMSOptIn', 'sms_consent'],
        ['tobacco', 'smoker'],
        ['tobacco_use', 'smoker'],
        ['smokes', 'smoker'],
        ['ip', 'ip_address'],
        ['comments', 'notes'],
        ['comment', 'notes'],
        ['campaign', 'campaign_name'],
      ] as const
    ).map(([key, target]): [string, string, number] => [key, target, 2]),
  ])('When the key is %j, then it names %s with rank %d', (key, target, rank) => {
    expect(resolveFieldName(key)).toEqual({ target, rank });
  });

  it.each([
    'source',
    'province',
    'region',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '',
    'x',
  ])('When the key is %j, then it is unknown', (key) => {
    expect(resolveFieldName(key)).toBeUndefined();
  });
});

describe('the alias table', () => {
  it('When the index is built, then no name points at two fields and every target is canonical', () => {
    expect(buildNameIndex(FIELD_ALIASES).conflicts).toEqual([]);
  });

  it('When an alias is listed, then it is written folded and is not redundant with the compact rule', () => {
    const compactOnly = buildNameIndex({});
    for (const names of Object.values(FIELD_ALIASES)) {
      for (const alias of names) {
        expect(foldKey(alias), alias).toBe(alias);
        expect(compactOnly.compact.get(alias.replaceAll('_', '')), alias).toBeUndefined();
      }
    }
  });

  it('When a table has a conflict, then buildNameIndex reports it', () => {
    expect(buildNameIndex({ phone: ['cell'], email: ['cell'] }).conflicts).toEqual(['cell']);
    expect(buildNameIndex({ phone: ['first_name'] }).conflicts).toEqual(['first_name']);
    expect(buildNameIndex({ not_a_field: ['x'] }).conflicts).toEqual(['not_a_field']);
  });
});

describe('resolveAppendedField', () => {
  it('When a second-line name is in the table, then it has a digit (keys without one are ruled out unfolded)', () => {
    for (const names of Object.values(APPENDED_ALIASES)) for (const name of names) expect(name).toMatch(/\d/);
  });

  it.each<[string, string | undefined]>([
    ['address_2', 'address'],
    ['Address Line 2', 'address'],
    ['addr_line2', 'address'],
    ['address', undefined],
    ['address_3', undefined],
  ])('When the key is %s, then it is appended to %s', (key, field) => {
    expect(resolveAppendedField(key)).toBe(field);
  });
});

describe('resolveFieldName: remembered names', () => {
  it.each<[string, ReturnType<typeof resolveFieldName>]>([
    ['First Name', { target: 'first_name', rank: 1 }],
    ['zip', { target: 'zipcode', rank: 2 }],
    ['home_phone', { target: 'phone', rank: 3 }],
    ['What is your email?', { target: 'email', rank: 2 }],
    ['nothing_known', undefined],
    ['__proto__', undefined],
    ['constructor', undefined],
  ])('When %s is resolved three times, then each answer is %j (the cache changes nothing)', (key, answer) => {
    // Known answers, not one call against another: a cache that kept a wrong answer would agree with itself.
    for (let i = 0; i < 3; i++) expect(resolveFieldName(key)).toEqual(answer);
  });
});

describe('resolveFieldName: a field named inside a question', () => {
  // Labels as form builders' users write them (Typeform titles, Google Ads custom questions,
  // Jotform and Formstack labels), and questions about something else that must stay unknown.
  it.each<[string, string | undefined]>([
    ['What is your first name?', 'first_name'],
    ['And your last name?', 'last_name'],
    ['Your last name', 'last_name'],
    ['Surname please', 'last_name'],
    ['What’s your first name?', 'first_name'],
    ['First name only', 'first_name'],
    ['What is your full name?', 'name'],
    ['Full name (first and last)', 'name'],
    ['First and last name', 'name'],
    ['Your full legal name', 'name'],
    ['Can you tell us your name?', 'name'],
    ['Best phone to reach you?', 'phone'],
    ["What's the best phone number to reach you at?", 'phone'],
    ['Best number to reach you', 'phone'],
    ['Phone (mobile preferred)', 'phone'],
    ['Please enter your phone number', 'phone'],
    ['Your cell phone number', 'phone'],
    ['Your email address please', 'email'],
    ['And your best email?', 'email'],
    ['Zip code where you live', 'zipcode'],
    ['What is your ZIP code?', 'zipcode'],
    ['Home ZIP code', 'zipcode'],
    ['What state do you live in?', 'state'],
    ['Which state are you in?', 'state'],
    ['State of residence', 'state'],
    ['What is your date of birth?', 'date_of_birth'],
    ['Date of birth (MM/DD/YYYY)', 'date_of_birth'],
    ['When were you born?', 'date_of_birth'],
    ['How old are you?', 'age'],
    ['Your current age', 'age'],
    ['How much coverage are you looking for?', 'coverage_amount'],
    ['How much coverage do you need?', 'coverage_amount'],
    ['Desired coverage amount', 'coverage_amount'],
    ['Are you a smoker?', 'smoker'],
    ["What's your budget?", 'monthly_budget'],
    // About someone or something else: no field of the prospect's.
    ['Who referred you by name?', undefined],
    ['What is your spouse’s name?', undefined],
    ['Name of your beneficiary’s guardian', undefined],
    ["What is your agent's phone number?", undefined],
    ['What is the best time to call?', undefined],
    ['Can we text you?', undefined],
    ['How did you hear about us?', undefined],
    ['Are you the policy holder?', undefined],
    ['What number of dependents do you have?', undefined],
    ['Your', undefined],
  ])('When the label is %j, then it names %s', (label, field) => {
    expect(resolveFieldName(label)?.target).toBe(field);
  });
});
