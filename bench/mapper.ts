/**
 * Micro-benchmark of the pure mapper: `npm run bench:mapper [-- iterations]`.
 * Maps a varied set of realistic payloads (clean, aliased, messy, invalid), then real lead
 * sources' own shapes through the envelope adapters, and prints mapped leads per second for each.
 * It measures the compiled mapper in dist/ (built first when stale), the code `npm start` runs: tsx
 * compiles src/ with helpers of its own around every closure, a tenth of the time on top.
 * No timing is asserted anywhere; this is for spotting regressions by eye.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type * as Mapper from '../src/ingest/map-submission.ts';
import type { MappingRules } from '../src/ingest/mapping-rules.ts';
import type { JsonObject } from '../src/json.ts';

// The launcher builds dist/ when it is older than src/ (bin/leadgate.js).
if (spawnSync(process.execPath, ['bin/leadgate.js', '--help']).status !== 0) {
  throw new Error('could not build dist/ (npm run build)');
}
const { mapSubmission } = (await import('../dist/ingest/map-submission.js' as string)) as typeof Mapper;

const FIRST = ['Ada', 'Grace', 'Alan', 'Katherine', 'José', 'Mary Jane', 'Zoë', 'Li'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'García', 'Watson', "O'Brien", 'Wei'];
const PHONES = [
  '(213) 373-4253',
  '+1 310 555 0100',
  '1-646-555-0123 x12',
  '4165550199',
  '555-1234',
  '213.373.4253',
];
const STATES = ['TX', 'california', 'N.Y.', 'District of Columbia', 'Narnia', 'fl'];
const CATEGORIES = ['FE', 'final expense', 'vets', 'MP', 'iul', 'police', 'auto'];

function payload(i: number): JsonObject {
  const first = FIRST[i % FIRST.length] ?? 'Ada';
  const last = LAST[(i * 3) % LAST.length] ?? 'Lovelace';
  const phone = PHONES[i % PHONES.length] ?? '';
  const common = {
    state: STATES[i % STATES.length] ?? 'TX',
    utm_source: 'facebook',
    utm_campaign: `spring-${i % 7}`,
    tags: i % 2 ? 'hot, vip, VIP' : ['new', 'fe'],
  };
  switch (i % 4) {
    case 0: // a clean vendor using canonical names
      return {
        first_name: first,
        last_name: last,
        phone,
        email: `${first.toLowerCase().replace(/\W/g, '')}@example.com`,
        zipcode: '02134',
        age: 40 + (i % 40),
        gender: 'Female',
        lead_category: CATEGORIES[i % CATEGORIES.length] ?? 'FE',
        coverage_amount: '25000',
        ...common,
      };
    case 1: // a form builder with its own spellings and aliases
      return {
        'Full Name': `${first} ${last}`,
        'Cell Phone': phone,
        'E-mail Address': `${last}@Example.COM`,
        Zip: 2134,
        DOB: `${(i % 12) + 1}/${(i % 28) + 1}/19${50 + (i % 40)}`,
        Sex: i % 2 ? 'M' : 'f',
        Tobacco: i % 3 ? 'No' : 'yes',
        coverageRequested: 15000,
        'How did you hear about us?': 'Facebook ad',
        ...common,
      };
    case 2: // a dialer posting an appointment with custom fields
      return {
        name: `${first} ${last}`,
        phone,
        scheduled_at: '2027-01-15T19:30:00Z',
        appointment_timezone: 'America/Chicago',
        schedule_type: 'callback',
        setter_dialer_name: 'Dialer 7',
        notes: 'Wants a quote for his wife too.\nCall after 5pm.',
        custom_fields: { join_url: 'https://meet.example/abc', setter_id: i, promo: 'A' },
        promo: 'B',
        idempotency_key: `key-${i}`,
        ...common,
      };
    default: // messy: invalid values, duplicates, blanks, unknown nested data
      return {
        name: `  ${first}   ${last} `,
        phone: '12345',
        mobile: phone,
        email: 'not-an-email',
        age: '17',
        date_of_birth: '02/30/1980',
        zip: '1234',
        smoker: 'sometimes',
        city: '   ',
        housing_type: 'homeowner',
        mortgage_type: 'fha',
        meta: { page: '/quote', ab: [1, 2, 3] },
        listen: i % 10 === 0 ? 'true' : false,
        ...common,
      };
  }
}

/**
 * Real senders' shapes (test/fixtures/senders), each with its own name and phone so no two are the
 * same: the adapters (Meta, Google Ads, Typeform, Unbounce, Jotform, HubSpot, nested objects) are in
 * the path, and a fifth of them carry a source's mapping rules.
 */
const FORMATS = [
  'meta-lead-ads.json',
  'google-ads-lead-form.json',
  'hubspot-form.json',
  'typeform.json',
  'unbounce-json.json',
  'google-forms-named-values.json',
  'formstack.json',
  'gravity-forms.json',
].map((file) => readFileSync(new URL(`../test/fixtures/senders/${file}`, import.meta.url), 'utf8'));
const JOTFORM = readFileSync(
  new URL('../test/fixtures/senders/jotform-raw-request.json', import.meta.url),
  'utf8',
);
const RULES: MappingRules = {
  '1.3': 'first_name',
  '1.6': 'last_name',
  '2': 'email',
  '3': 'phone',
  debug: null,
};

function formatPayload(i: number): { body: JsonObject; rules?: MappingRules } {
  const first = FIRST[i % FIRST.length] ?? 'Ada';
  const line = String(1000 + (i % 9000)).padStart(4, '0');
  // Each sender's own writing of its phone is kept ("(503) 555-0175" stays "(214) 555-1234"):
  // only the digits change.
  const vary = (text: string) =>
    text
      .replaceAll(/Rosa|Marcus|Keisha|Walter|Dana|Tom|Linda|Beatriz|Samuel/g, first)
      .replaceAll(
        /\d{3}(\)? ?-?)555(-?)01\d\d/g,
        (_, mid: string, dash: string) => `214${mid}555${dash}${line}`,
      );
  if (i % 9 === 8) return { body: { formID: '2401', ip: '192.0.2.44', rawRequest: vary(JOTFORM) } };
  const text = FORMATS[i % FORMATS.length] ?? '{}';
  return { body: JSON.parse(vary(text)) as JsonObject, ...(i % 5 === 0 ? { rules: RULES } : {}) };
}

const iterations = Number(process.argv[2] ?? 200_000);
const now = new Date('2026-03-01T12:00:00Z');

function measure(label: string, inputs: Array<{ body: JsonObject; rules?: MappingRules }>): void {
  const map = (i: number) => {
    const input = inputs[i % inputs.length] ?? { body: {} };
    return mapSubmission(input.body, { now, ...(input.rules ? { rules: input.rules } : {}) });
  };
  // Warm up the JIT so the figure measures steady state, not compilation.
  for (let i = 0; i < 20_000; i += 1) map(i);
  let fieldsMapped = 0;
  const started = performance.now();
  for (let i = 0; i < iterations; i += 1) fieldsMapped += Object.keys(map(i).lead).length;
  const seconds = (performance.now() - started) / 1000;
  const perSecond = Math.round(iterations / seconds);
  console.log(
    `${label}: mapped ${iterations.toLocaleString('en-US')} leads in ${seconds.toFixed(2)} s: ` +
      `${perSecond.toLocaleString('en-US')} leads/s ` +
      `(${(1e6 / perSecond).toFixed(1)} µs/lead, ${(fieldsMapped / iterations).toFixed(1)} lead fields/lead)`,
  );
}

measure(
  'flat vendor mix   ',
  Array.from({ length: 400 }, (_, i) => ({ body: payload(i) })),
);
measure(
  'real-sender shapes',
  Array.from({ length: 400 }, (_, i) => formatPayload(i)),
);
