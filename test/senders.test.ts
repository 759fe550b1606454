import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { GATEWAY } from './support/deliver.ts';

// Real lead sources, each in the shape its publisher documents (values invented): the lead read back
// from the database is exactly what the agent should see.
const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/senders/${name}`, import.meta.url), 'utf8');

let t: TestApp;
let src: { agent_id: string; source_id: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  src = await seedSource(t.db, 'Agent Senders', 'America/Chicago');
});
afterAll(() => t.close());

function post(payload: string | Buffer, contentType: string, token = src.token) {
  return t.app.inject({
    method: 'POST',
    url: GATEWAY,
    headers: { 'content-type': contentType, 'x-source-token': token },
    payload,
  });
}

/** The stored lead as the agent sees it: every field with a value, custom_fields, and the format read. */
async function readBack(leadId: string) {
  const { rows } = await t.db.query<Record<string, unknown> & { fields: Record<string, unknown> }>(
    `SELECT name, first_name, last_name, phone, email, campaign_name, fields, custom_fields, body_format
       FROM leads WHERE lead_id = $1`,
    [leadId],
  );
  const row = rows[0];
  if (!row) throw new Error(`lead ${leadId} not stored`);
  const { fields, custom_fields, body_format, ...columns } = row;
  const lead = Object.fromEntries(Object.entries({ ...columns, ...fields }).filter(([, v]) => v !== null));
  return { lead, custom_fields, body_format };
}

async function landed(payload: string | Buffer, contentType: string) {
  const res = await post(payload, contentType);
  expect(res.statusCode, res.body).toBe(200);
  return readBack(res.json<{ lead_id: string }>().lead_id);
}

const multipart = (boundary: string, parts: Array<[string, string]>) =>
  Buffer.from(
    parts
      .map(
        ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`,
      )
      .join('\r\n') + `\r\n--${boundary}--\r\n`,
  );

describe('every common lead format lands', () => {
  it('Meta Lead Ads: field_data is read, the lead id fills leadgen_id, the ad and form ids are kept', async () => {
    expect(await landed(fixture('meta-lead-ads.json'), 'application/json')).toEqual({
      body_format: 'meta_lead_ads',
      lead: {
        name: 'Rosa Delgado',
        first_name: 'Rosa',
        last_name: 'Delgado',
        email: 'rosa.delgado@example.com',
        phone: '2145550143',
        zipcode: '75201',
        date_of_birth: '1958-04-22',
        age: expect.any(Number),
        smoker: false,
        coverage_amount: '$15,000',
        leadgen_id: '1203948576012345',
        ad_id: '23851234567890123',
        campaign_name: 'FE Texas February',
      },
      custom_fields: {
        created_time: '2027-02-11T17:04:12+0000',
        ad_name: 'Final expense – TX – carousel',
        adset_id: '23851234567890456',
        campaign_id: '23851234567890789',
        form_id: '771234567890123',
        is_organic: false,
        platform: 'fb',
      },
    });
  });

  it('Google Ads lead forms: standard columns by id (REGION is the state), a custom question by its label, the google_key nowhere', async () => {
    expect(await landed(fixture('google-ads-lead-form.json'), 'application/json')).toEqual({
      body_format: 'google_ads_lead_form',
      lead: {
        name: 'Marcus Webb',
        first_name: 'Marcus',
        last_name: 'Webb',
        email: 'marcus.webb@example.com',
        phone: '6155550172',
        zipcode: '37203',
        state: 'TN',
        leadgen_id: 'TeSter-123-ABCDEFGHIJKLMNOPQRSTUVWXYZ-abcdefghijklmnopqrstuvwxyz',
      },
      custom_fields: {
        'How soon do you need coverage?': 'This month',
        api_version: '1.0',
        form_id: 40000000000,
        campaign_id: 12345678901,
        is_test: true,
        gcl_id: 'EAIaIQobChMI-invented',
        adgroup_id: 20000000000,
        creative_id: 30000000000,
      },
    });
  });

  it('HubSpot form submissions: the fields list is read, the context gives the IP and keeps the rest', async () => {
    expect(await landed(fixture('hubspot-form.json'), 'application/json')).toEqual({
      body_format: 'field_list',
      lead: {
        name: 'Keisha Brown',
        first_name: 'Keisha',
        last_name: 'Brown',
        email: 'keisha.brown@example.com',
        phone: '4045550188',
        state: 'GA',
        coverage_type: 'Mortgage protection',
        ip_address: '203.0.113.9',
      },
      custom_fields: {
        submittedAt: 1770825600000,
        context: {
          hutk: '0123456789abcdef0123456789abcdef',
          pageUri: 'https://www.example.com/quote',
          pageName: 'Get a quote',
        },
      },
    });
  });

  it('Typeform: answers are labelled by their question titles; hidden fields carry the UTM parameters', async () => {
    expect(await landed(fixture('typeform.json'), 'application/json')).toEqual({
      body_format: 'typeform',
      lead: {
        name: 'Walter Price',
        first_name: 'Walter',
        last_name: 'Price',
        email: 'walter.price@example.com',
        phone: '3125550164',
        state: 'IL',
        coverage_amount: '$20,000',
        smoker: true,
        utm_source: 'facebook',
        utm_campaign: 'fe-feb',
      },
      custom_fields: {
        form_id: 'lT4Z3j',
        token: 'a3a12ec67a1365927098a606107fac15',
        landed_at: '2027-02-11T16:59:01Z',
        submitted_at: '2027-02-11T17:01:45Z',
        form_title: 'Free final expense quote',
        event_id: '01JKTYPEFORMEVENT00000000',
        event_type: 'form_response',
      },
    });
  });

  it('Typeform: questions in the form owner’s own words fill the fields they ask for; a question about someone else stays a custom field', async () => {
    const questions: Array<[string, string, string]> = [
      ['q1', 'What is your first name?', 'David'],
      ['q2', 'And your last name?', 'Okoro'],
      ['q3', 'Best phone to reach you?', '(713) 555-0142'],
      ['q4', 'Zip code where you live', '77002'],
      ['q5', 'Who referred you by name?', 'Maria Lopez'],
    ];
    const body = {
      event_type: 'form_response',
      form_response: {
        form_id: 'own-words',
        definition: { fields: questions.map(([id, title]) => ({ id, title, type: 'short_text' })) },
        answers: questions.map(([id, , text]) => ({ type: 'text', text, field: { id, type: 'short_text' } })),
      },
    };
    const stored = await landed(JSON.stringify(body), 'application/json');
    expect(stored.lead).toMatchObject({
      name: 'David Okoro',
      first_name: 'David',
      last_name: 'Okoro',
      phone: '7135550142',
      zipcode: '77002',
    });
    expect(stored.custom_fields).toMatchObject({ 'Who referred you by name?': 'Maria Lopez' });
  });

  it('Unbounce with a JSON content type: one-element lists are unwrapped', async () => {
    expect(await landed(fixture('unbounce-json.json'), 'application/json')).toEqual({
      body_format: 'flat',
      lead: {
        name: 'Dana Okafor',
        first_name: 'Dana',
        last_name: 'Okafor',
        email: 'dana.okafor@example.com',
        phone: '6025550119',
        zipcode: '85004',
        ip_address: '198.51.100.23',
      },
      custom_fields: {
        page_uuid: '1a2b3c4d-0000-4000-8000-000000000001',
        variant: 'a',
        time_submitted: '05:01 PM UTC',
        date_submitted: '2027-02-11',
      },
    });
  });

  it('Unbounce’s default form post: the submission inside data.json is read, data.xml (the same again) is not kept', async () => {
    const form = new URLSearchParams({
      'data.json': fixture('unbounce-json.json'),
      'data.xml': '<?xml version="1.0"?><form_data><first_name>Dana</first_name></form_data>',
      page_id: '1a2b3c4d-0000-4000-8000-0000000000aa',
      page_url: 'https://quotes.example.com/final-expense',
      variant: 'a',
    }).toString();
    const back = await landed(form, 'application/x-www-form-urlencoded');
    expect(back.body_format).toBe('unbounce');
    expect(back.lead).toMatchObject({ name: 'Dana Okafor', phone: '6025550119', zipcode: '85004' });
    expect(back.custom_fields).toEqual({
      page_uuid: '1a2b3c4d-0000-4000-8000-000000000001',
      variant: 'a',
      time_submitted: '05:01 PM UTC',
      date_submitted: '2027-02-11',
      page_id: '1a2b3c4d-0000-4000-8000-0000000000aa',
      page_url: 'https://quotes.example.com/final-expense',
      'variant (body)': 'a',
    });
  });

  it('Google Forms namedValues: every value is a one-element list keyed by the question', async () => {
    expect(await landed(fixture('google-forms-named-values.json'), 'application/json')).toEqual({
      body_format: 'flat',
      lead: {
        name: 'Tom Nguyen',
        first_name: 'Tom',
        last_name: 'Nguyen',
        phone: '7135550136',
        email: 'tom.nguyen@example.com',
        age: 61,
        tags: ['webinar'],
      },
      custom_fields: { Timestamp: '2/11/2027 11:02:33' },
    });
  });

  it('Formstack: the Name and Address objects are flattened, the second address line appended', async () => {
    expect(await landed(fixture('formstack.json'), 'application/json')).toEqual({
      body_format: 'flat',
      lead: {
        name: 'Linda Park',
        first_name: 'Linda',
        last_name: 'Park',
        email: 'linda.park@example.com',
        phone: '5035550175',
        address: '1200 SW Main St, Apt 4B',
        city: 'Portland',
        state: 'OR',
        zipcode: '97205',
      },
      custom_fields: {
        FormID: '5123456',
        UniqueID: '1198765432',
        Address: { country: 'United States' },
        'Best time to call': 'Evenings',
      },
    });
  });

  it('Jotform: a multipart/form-data post with the submission inside the rawRequest JSON text', async () => {
    const body = multipart('----JotformBoundary7MA4YWxk', [
      ['formID', '240123456789012'],
      ['submissionID', '5912345678901234567'],
      ['formTitle', 'Life insurance quote'],
      ['ip', '192.0.2.44'],
      ['rawRequest', fixture('jotform-raw-request.json')],
    ]);
    expect(await landed(body, 'multipart/form-data; boundary=----JotformBoundary7MA4YWxk')).toEqual({
      body_format: 'jotform',
      lead: {
        name: 'Samuel Ortiz',
        first_name: 'Samuel',
        last_name: 'Ortiz',
        email: 'samuel.ortiz@example.com',
        phone: '3055550190',
        address: '88 Brickell Ave, Unit 1203',
        city: 'Miami',
        state: 'FL',
        zipcode: '33131',
        coverage_amount: '25000',
        ip_address: '192.0.2.44',
      },
      custom_fields: {
        slug: 'submit/240123456789012',
        event_id: '1770825600000_240123456789012_abcdefg',
        formID: '240123456789012',
        submissionID: '5912345678901234567',
        formTitle: 'Life insurance quote',
      },
    });
  });

  it('An XML post from an older vendor: nested contact and address, consent evidence under its real names, a second phone kept', async () => {
    // Posted with `curl -d @vendor-lead.xml`, which labels it a form.
    expect(await landed(fixture('vendor-lead.xml'), 'application/x-www-form-urlencoded')).toEqual({
      body_format: 'flat',
      lead: {
        name: 'Harold Jensen',
        first_name: 'Harold',
        last_name: 'Jensen',
        phone: '8165550127',
        email: 'harold.jensen@example.com',
        address: '402 Oak St',
        city: 'Kansas City',
        state: 'MO',
        zipcode: '64106',
        smoker: false,
        consent_cert_url: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
        consent_token: 'A1B2C3D4-E5F6-7890-ABCD-EF1234567890',
      },
      custom_fields: { vendor_lead_id: 'VL-88231', home_phone: '816-555-0199' },
    });
  });

  it('JSON sent as a form (curl -d without -H) is read as JSON', async () => {
    const back = await landed(
      '{"name":"Curl Sender","phone":"2145550100","fbclid":"IwAR0abc","_fbc":"fb.1.1.IwAR0abc","_fbp":"fb.1.1.99"}',
      'application/x-www-form-urlencoded',
    );
    expect(back.lead).toEqual({
      name: 'Curl Sender',
      first_name: 'Curl',
      last_name: 'Sender',
      phone: '2145550100',
      socialclid: 'IwAR0abc',
      socialc: 'fb.1.1.IwAR0abc',
      socialp: 'fb.1.1.99',
    });
    expect(back.custom_fields).toEqual({});
  });

  it('Gravity Forms keyed by field ids: without rules nothing is lost, the refusal is MISSING_NAME', async () => {
    const res = await post(fixture('gravity-forms.json'), 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 'MISSING_NAME' });
  });
});

describe('limits hold for every format', () => {
  it('An XML body with a DOCTYPE, too deep, or with too many members is refused, never a 500', async () => {
    const doctype = await post('<!DOCTYPE l [<!ENTITY a "x">]><l><name>&a;</name></l>', 'application/xml');
    expect(doctype.statusCode).toBe(400);
    expect(doctype.json()).toMatchObject({ error_code: 'INVALID_JSON' });
    const deep = await post(`${'<a>'.repeat(40)}x${'</a>'.repeat(40)}`, 'application/xml');
    expect(deep.json()).toMatchObject({
      error_code: 'INVALID_JSON',
      details: 'XML nested deeper than 32 levels',
    });
    const wide = await post(`<l>${'<k>1</k>'.repeat(5001)}</l>`, 'application/xml');
    expect(wide.statusCode).toBe(413);
    expect(wide.json()).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE' });
  });

  it('A multipart body with too many parts is refused as too large; a broken one as INVALID_JSON', async () => {
    const parts = Array.from({ length: 5001 }, (_, i): [string, string] => [`k${i}`, '1']);
    const wide = await post(multipart('B', parts), 'multipart/form-data; boundary=B');
    expect(wide.statusCode).toBe(413);
    const broken = await post('--B\r\nno end', 'multipart/form-data; boundary=B');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error_code: 'INVALID_JSON' });
  });

  it('A JSON body with too many members is refused as too large', async () => {
    const wide = await post(
      JSON.stringify({ name: 'Wide', list: Array.from({ length: 5000 }, (_, i) => i) }),
      'application/json',
    );
    expect(wide.statusCode).toBe(413);
    expect(wide.json()).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('consent evidence under its real names', () => {
  it('Jornaya’s token is kept as consent_token, on the lead and in its consent evidence', async () => {
    const res = await post(
      JSON.stringify({
        name: 'Token Lead',
        universal_leadid: 'LEADID-1',
        sms_consent: true,
        trustedform_cert_url: 'https://cert.trustedform.com/abc',
      }),
      'application/json',
    );
    const view = await adminInject(t.app, 'GET', `/leads/${res.json<{ lead_id: string }>().lead_id}`);
    expect(view.json()).toMatchObject({
      consent_token: 'LEADID-1',
      consent: {
        sms_consent: true,
        consent_cert_url: 'https://cert.trustedform.com/abc',
        consent_token: 'LEADID-1',
      },
    });
  });
});

describe("a vendor's own nested data", () => {
  it('An unknown nested object is stored exactly as sent, even where its members are named like lead fields', async () => {
    const vendorMeta = {
      campaign: { id: 42, tags: ['a', 'b'] },
      verified: true,
      email: 'ops@vendor.example',
    };
    const stored = await landed(
      JSON.stringify({ name: 'Nested Meta', email: 'nested.meta@example.com', vendor_meta: vendorMeta }),
      'application/json',
    );
    expect(stored.lead).toMatchObject({ name: 'Nested Meta', email: 'nested.meta@example.com' });
    expect(stored.lead).not.toHaveProperty('campaign_name');
    expect(stored.custom_fields).toEqual({ vendor_meta: vendorMeta });
  });

  it('A "listen" member inside a nested object is data: the lead is created, the member kept', async () => {
    const res = await post(
      JSON.stringify({ name: 'Not A Dry Run', foo: { listen: true } }),
      'application/json',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ listen: false, message: 'Lead created' });
    const stored = await readBack(res.json<{ lead_id: string }>().lead_id);
    expect(stored.custom_fields).toEqual({ foo: { listen: true } });
  });
});

describe('what reading a body changed, told to the sender', () => {
  it('XML character references are decoded; one naming no storable character is reported, the lead created', async () => {
    const res = await post(
      '<lead><first_name>Jos&#233;</first_name><last_name>P&#xE9;rez&#0;</last_name></lead>',
      'application/xml',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().warnings).toEqual([
      expect.objectContaining({ field: 'body', code: 'UNSTORABLE_CHARACTERS_REMOVED' }),
    ]);
    expect((await readBack(res.json<{ lead_id: string }>().lead_id)).lead).toMatchObject({
      name: 'José Pérez',
    });
  });

  it('A JSON key sent twice and bytes that are not UTF-8 are reported in the answer, the lead created', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"name":"First Try","email":"dup@example.com","name":"Dana Dup","notes":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const res = await post(raw, 'application/json');
    expect(res.statusCode).toBe(200);
    expect(res.json().warnings.map((w: { field: string; code: string }) => [w.field, w.code])).toEqual([
      ['body', 'INVALID_UTF8_REPLACED'],
      ['name', 'DUPLICATE_KEY'],
    ]);
    expect((await readBack(res.json<{ lead_id: string }>().lead_id)).lead).toMatchObject({
      name: 'Dana Dup',
    });
  });
});
