import type { FastifyInstance, HTTPMethods } from 'fastify';
import { isJsonObject } from '../src/json.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/errors.ts';
import { GATEWAY_PATH } from '../src/gateway/routes.ts';
import { LEAD_FIELDS, type FieldKind } from '../src/ingest/fields.ts';
import { LISTEN_MESSAGE } from '../src/http/contract-meta.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Compile } from 'typebox/compile';
import { readFileSync } from 'node:fs';
import { CLI_TYPES_FILE, renderCliTypes } from '../scripts/cli-types.ts';
import { ADMIN_KEY, createTestApp, seedSource, type TestApp } from './support/app.ts';
import { deliver } from './support/deliver.ts';

type Json = Record<string, unknown>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const isObject = (v: unknown): v is Json => isJsonObject(v);

let t: TestApp;
let doc: Json;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json<Json>();
});
afterAll(() => t.close());

/** The value at a JSON pointer (`/components/schemas/Lead`), or undefined. */
function at(pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return node;
}

function obj(value: unknown, what: string): Json {
  if (!isObject(value)) throw new Error(`${what} is not an object`);
  return value;
}

/** Follows `$ref`s until a node without one. */
function deref(node: unknown): Json {
  let current = obj(node, 'node');
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref loop at ${current.$ref}`);
    current = obj(at(current.$ref.slice(1)), current.$ref);
  }
  return current;
}

const schema = (name: string): Json => obj(at(`/components/schemas/${name}`), `schema ${name}`);

/** A copy of `node` with every `$ref` replaced by what it names (the document has no cycles). */
function inline(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inline);
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') return inline(at(node.$ref.slice(1)));
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
}

/** The JSON schema of an operation's answer with this status. */
function answerSchema(method: string, path: string, status: number): Json {
  const op = obj(obj(obj(doc.paths, 'paths')[path], path)[method], `${method} ${path}`);
  const response = deref(obj(op.responses, 'responses')[String(status)]);
  return obj(inline(obj(obj(response.content, 'content')['application/json'], 'json').schema), 'schema');
}

/** A real answer of the app is valid against what the document says that operation answers. */
function expectValid(value: unknown, method: string, path: string, status = 200): void {
  const check = Compile(answerSchema(method, path, status) as never);
  expect(
    check.Check(value),
    `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify([...check.Errors(value)].slice(0, 3))}`,
  ).toBe(true);
}

function operations(): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(obj(doc.paths, 'paths')).flatMap(([path, item]) =>
    Object.entries(obj(item, path))
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: obj(op, `${method} ${path}`) })),
  );
}

/** Every (method, url) the app registered, read from Fastify's route tree (`:param` form). */
function registeredRoutes(app: FastifyInstance): Array<{ method: string; url: string }> {
  const stack: string[] = [];
  const out: Array<{ method: string; url: string }> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line.trimEnd());
    if (!m) continue;
    stack.length = (m[1] ?? '').length / 4;
    stack.push(m[2] ?? '');
    const url = stack.join('');
    for (const method of m[3] ? m[3].split(', ') : []) out.push({ method, url });
  }
  return out;
}

/** Every named example of the media types under `node`. */
function collectExamples(node: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((n) => collectExamples(n, out));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' && isObject(value)) out.push(...Object.values(value));
      else collectExamples(value, out);
    }
  }
  return out;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

describe('GET /v1/openapi.json', () => {
  it('when fetched, then it is an OpenAPI 3.1.0 document of interface version 3.1.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(obj(doc.info, 'info')).toMatchObject({ version: '3.1.0' });
    expect(doc.servers).toEqual([{ url: '/' }]);
  });

  it('when validated against the OpenAPI 3.1 specification, then it is valid', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);

    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('when the app routes are listed, then every /v1 route is documented with its method', () => {
    const routes = registeredRoutes(t.app);
    // The parser must read the tree right: each route it finds is one Fastify knows.
    for (const r of routes)
      expect(t.app.hasRoute({ method: r.method as HTTPMethods, url: r.url }), r.url).toBe(true);
    const expected = routes
      .filter((r) => r.url.startsWith('/v1'))
      // Empty-segment routes (`/v/`, `/agents//sources`) only name the missing identifier.
      .filter((r) => !/\/\/|\/$/.test(r.url))
      // The gateway's other methods are the 405 catch-all, documented as the 405 answer.
      .filter((r) => !r.url.startsWith(GATEWAY_PATH) || r.method === 'POST')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(expected).toContain(`POST ${GATEWAY_PATH}/v/{token}`);
    expect(expected).toContain('GET /v1/admin/leads/{lead_id}');
    const documented = operations().map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(expected.filter((r) => !documented.includes(r))).toEqual([]);
  });

  it('when an operation is documented, then the app has that route', () => {
    for (const { path, method } of operations()) {
      const url = path.replace(/\{(\w+)\}/g, ':$1');
      expect(t.app.hasRoute({ method: method.toUpperCase() as HTTPMethods, url }), `${method} ${path}`).toBe(
        true,
      );
    }
  });

  it('when ERRORS is read, then every code is in the ErrorResponse enum and has an example in some operation', () => {
    const codes = Object.keys(ERRORS) as ErrorCode[];
    const props = obj(schema('ErrorResponse').properties, 'ErrorResponse.properties');
    expect(obj(props.error_code, 'error_code').enum).toEqual(codes);
    const shown = new Set(
      collectExamples(doc.paths).map((e) =>
        isObject(e) && isObject(e.value) ? e.value.error_code : undefined,
      ),
    );
    // The HTTP parser's own refusal comes before any route.
    const answeredElsewhere = ['HEADERS_TOO_LARGE'];
    expect(codes.filter((c) => !shown.has(c) && !answeredElsewhere.includes(c))).toEqual([]);
  });

  it('when LEAD_FIELDS is read, then every field is a LeadSubmission property of its kind, described', () => {
    const submission = schema('LeadSubmission');
    expect(answerSchema('post', GATEWAY_PATH, 200).oneOf).toHaveLength(4);
    expect(submission.additionalProperties).toBe(true);
    const props = obj(submission.properties, 'LeadSubmission.properties');
    const types: Record<FieldKind, string> = {
      string: 'string',
      integer: 'integer',
      boolean: 'boolean',
      datetime: 'string',
      'string[]': 'array',
    };
    for (const [field, kind] of Object.entries(LEAD_FIELDS) as [string, FieldKind][]) {
      const prop = obj(props[field], `LeadSubmission.${field}`);
      expect(prop.type, field).toBe(types[kind]);
      expect(prop.description, field).toEqual(expect.any(String));
    }
    for (const control of ['listen', 'idempotency_key', 'custom_fields'])
      expect(props).toHaveProperty(control);
    expect(props.age).toMatchObject({ minimum: 18, maximum: 120 });
    expect(props.gender).toMatchObject({ enum: ['Male', 'Female'] });
    expect(props.schedule_type).toMatchObject({ enum: ['appointment', 'follow_up'] });
    expect(props.housing_type).toMatchObject({ enum: ['Own', 'Rent', 'Other'] });
    expect(props.mortgage_type).toMatchObject({
      enum: ['Conventional', 'FHA', 'VA', 'Fixed', 'ARM', 'USDA', 'Jumbo', 'Reverse'],
    });
    expect(props.lead_category).toMatchObject({
      enum: [
        'veterans',
        'final-expense',
        'mortgage-protection',
        'nurses',
        'truckers',
        'iul',
        'first-responder',
        'federal-employee',
        'senior',
        'teacher',
        'generic',
      ],
    });
  });

  it('when every $ref is followed, then it resolves inside the document', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref.startsWith('#/'), ref).toBe(true);
      expect(at(ref.slice(1)), ref).toBeDefined();
    }
  });

  it('when the structure is checked, then operations, responses, parameters and security are consistent', () => {
    const components = obj(doc.components, 'components');
    const schemes = obj(components.securitySchemes, 'securitySchemes');
    expect(schemes.sourceTokenHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-source-token' });
    expect(schemes.adminBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const tags = new Set((doc.tags as Json[]).map((tag) => tag.name));
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);

    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toEqual(expect.any(String));
      for (const tag of op.tags as string[]) expect(tags.has(tag), `${where} tag ${tag}`).toBe(true);
      for (const requirement of op.security as Json[]) {
        for (const name of Object.keys(requirement)) expect(schemes, where).toHaveProperty(name);
      }
      const params = ((op.parameters ?? []) as unknown[]).map(deref);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const inPath = params.filter((p) => p.in === 'path');
      expect(inPath.map((p) => p.name).sort(), where).toEqual([...templated].sort());
      for (const p of inPath) expect(p.required, `${where} ${String(p.name)}`).toBe(true);

      for (const [status, raw] of Object.entries(obj(op.responses, where))) {
        expect(status, where).toMatch(/^[1-5]\d\d$/);
        const response = deref(raw);
        expect(response.description, `${where} ${status}`).toEqual(expect.any(String));
        // Under /v1 every failure has the error shape (/readyz answers 503 with its own body).
        if (Number(status) < 400 || !path.startsWith('/v1')) continue;
        const content = obj(obj(response.content, `${where} ${status}`)['application/json'], 'json');
        expect(content.schema, where).toMatchObject({
          allOf: [{ $ref: '#/components/schemas/ErrorResponse' }],
        });
        const examples = Object.values(obj(content.examples, `${where} ${status} examples`)).map(
          (e) => obj(deref(e).value, 'example') as { error: string; error_code: ErrorCode },
        );
        expect(examples.length, `${where} ${status}`).toBeGreaterThan(0);
        for (const e of examples) {
          expect(ERRORS[e.error_code].status, `${where} ${e.error_code}`).toBe(Number(status));
          expect(e.error).toBe(ERRORS[e.error_code].error);
        }
      }
    }
  });

  it('when a gateway operation is read, then it takes JSON, both forms, XML and text and lists every status', () => {
    for (const path of [GATEWAY_PATH, `${GATEWAY_PATH}/v/{token}`]) {
      const op = obj(obj(obj(doc.paths, 'paths')[path], path).post, path);
      const body = obj(obj(op.requestBody, 'requestBody').content, 'content');
      expect(Object.keys(body).sort()).toEqual([
        'application/json',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data',
        'text/plain',
      ]);
      const responses = obj(op.responses, 'responses');
      expect(Object.keys(responses)).toEqual([
        '200',
        '400',
        '401',
        '405',
        '408',
        '413',
        '422',
        '429',
        '500',
        '503',
      ]);
      expect(deref(responses['405']).headers).toHaveProperty('Allow');
      expect(deref(responses['429']).headers).toHaveProperty('Retry-After');
      const examples = (status: string) =>
        Object.keys(
          obj(obj(deref(responses[status]).content, status)['application/json'], status).examples ?? {},
        );
      expect(examples('400').sort()).toEqual(['INVALID_IDEMPOTENCY_KEY', 'INVALID_JSON', 'MISSING_NAME']);
      expect(examples('401').sort()).toEqual([
        'INVALID_SIGNATURE',
        'INVALID_SOURCE_TOKEN',
        'MISSING_SOURCE_TOKEN',
      ]);
      expect(examples('500').sort()).toEqual(['INSERT_FAILED', 'LISTEN_INSERT_FAILED', 'SERVER_ERROR']);
    }
  });
});

describe('the CLI’s types', () => {
  it('when generated from the document, then they are src/cli/admin-api.ts as committed (npm run generate:cli-types)', async () => {
    // Generated in memory: a test never rewrites a tracked file.
    const generated = await renderCliTypes(doc);
    expect(generated).toBe(readFileSync(CLI_TYPES_FILE, 'utf8'));
  });
});

describe('the document against real answers', () => {
  const admin = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json) => {
    const res = await t.app.inject({
      method,
      url: `/v1/admin${url}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json<Json>();
  };

  it('when the gateway answers, then each answer is valid against its documented answer', async () => {
    const src = await seedSource(t.db, 'Doc Agent');
    const live = await deliver(t.app, src.token, {
      name: 'Jane Doe',
      age: 15,
      scheduled_at: '2027-01-15T19:30:00Z',
      appointment_timezone: 'America/Chicago',
    });
    expect(live.statusCode).toBe(200);
    expectValid(live.json(), 'post', GATEWAY_PATH);
    const { warnings } = live.json<{ warnings: unknown[] }>();
    expect(warnings.length).toBeGreaterThan(0); // an age of 15 is flagged: the schema is checked

    const listen = await deliver(t.app, src.token, { name: 'Jane Doe', listen: true });
    expectValid(listen.json(), 'post', `${GATEWAY_PATH}/v/{token}`);
    expect(listen.json()).toEqual({ success: true, listen: true, message: LISTEN_MESSAGE });
    expect(JSON.stringify(answerSchema('post', GATEWAY_PATH, 200))).toContain(LISTEN_MESSAGE);

    const missing = await deliver(t.app, src.token, { phone: '2145550100' });
    expect(missing.statusCode).toBe(400);
    expectValid(missing.json(), 'post', GATEWAY_PATH, 400);
  });

  it('when the admin API answers, then each answer is valid against its documented answer', async () => {
    const agent = await admin('POST', '/agents', { name: 'Docs Agent', timezone: 'America/Chicago' });
    expectValid(agent, 'post', '/v1/admin/agents', 201);
    const agentId = String(agent.agent_id);
    expectValid(await admin('GET', `/agents/${agentId}`), 'get', '/v1/admin/agents/{agent_id}');
    const source = await admin('POST', `/agents/${agentId}/sources`, { name: 'Docs source' });
    expectValid(source, 'post', '/v1/admin/agents/{agent_id}/sources', 201);
    const sourceId = String(source.source_id);
    expectValid(
      await admin('POST', `/sources/${sourceId}/regenerate`),
      'post',
      '/v1/admin/sources/{source_id}/regenerate',
    );
    expectValid(
      await admin('GET', `/agents/${agentId}/sources`),
      'get',
      '/v1/admin/agents/{agent_id}/sources',
    );

    const fresh = await admin('POST', `/sources/${sourceId}/regenerate`);
    const token = String(fresh.token);
    const delivered = await deliver(t.app, token, {
      name: 'John Roe',
      scheduled_at: '2027-01-15T19:30:00Z',
      appointment_timezone: 'America/Chicago',
    });
    await deliver(t.app, token, { first_name: 'Sam', listen: true });
    const leadId = String(delivered.json<Json>().lead_id);

    const returned = await admin('POST', `/leads/${leadId}/returns`, { reason: 'other' });
    expectValid(returned, 'post', '/v1/admin/leads/{lead_id}/returns', 201);
    const sold = await admin('POST', `/leads/${leadId}/sales`, { premium_cents: 120_000 });
    expectValid(sold, 'post', '/v1/admin/leads/{lead_id}/sales', 201);
    const detail = await admin('GET', `/leads/${leadId}`);
    expect((detail.appointments as unknown[]).length).toBe(1);
    expect([(detail.returns as unknown[]).length, (detail.sales as unknown[]).length]).toEqual([1, 1]);
    expectValid(detail, 'get', '/v1/admin/leads/{lead_id}');
    // The lead's parts are checked only if the document requires them.
    const parts = answerSchema('get', '/v1/admin/leads/{lead_id}', 200).allOf as Json[];
    expect(parts.flatMap((part) => (part.required as string[] | undefined) ?? [])).toEqual(
      expect.arrayContaining(['appointments', 'history', 'purchases', 'returns', 'sales']),
    );
    const page = await admin('GET', `/agents/${agentId}/leads?limit=10`);
    expectValid(page, 'get', '/v1/admin/agents/{agent_id}/leads');
    const agenda = await admin(
      'GET',
      `/agents/${agentId}/agenda?from=2027-01-01T00:00:00Z&to=2027-02-01T00:00:00Z`,
    );
    expect((agenda.appointments as unknown[]).length).toBe(1);
    expectValid(agenda, 'get', '/v1/admin/agents/{agent_id}/agenda');
    const listed = await admin('GET', `/sources/${sourceId}/samples`);
    const samples = listed.samples as unknown[];
    expect(samples.length).toBe(1);
    expectValid(listed, 'get', '/v1/admin/sources/{source_id}/samples');

    const rules = await admin('PUT', `/sources/${sourceId}/mapping`, { rules: { q1: 'notes', debug: null } });
    expectValid(rules, 'put', '/v1/admin/sources/{source_id}/mapping');
    expectValid(
      await admin('GET', `/sources/${sourceId}/mapping`),
      'get',
      '/v1/admin/sources/{source_id}/mapping',
    );
    const sampleId = String((samples as Json[])[0]?.sample_id);
    expectValid(
      await admin('POST', `/sources/${sourceId}/samples/${sampleId}/remap`),
      'post',
      '/v1/admin/sources/{source_id}/samples/{sample_id}/remap',
    );
    await deliver(t.app, token, undefined, { raw: 'not json' });
    const refused = await admin('GET', `/sources/${sourceId}/samples?listen=false`);
    expect(refused.samples).toMatchObject([{ listen: false, error_code: 'INVALID_JSON' }]);
    expectValid(refused, 'get', '/v1/admin/sources/{source_id}/samples');
  });
});
