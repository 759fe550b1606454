import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { deliver } from './support/deliver.ts';

/**
 * Who may make an agent a producer of an agency, and who may hand an agency over (docs/routing.md,
 * "Producers join by invitation"; docs/admin-api.md, "Which key may name which ids"): the operator,
 * or an invitation the producer accepts with its own key. A producer always may leave.
 */

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Json = Record<string, unknown>;

/** One admin request with `key` (an agent key, or the operator's when null). */
async function as(key: string | null, method: Method, url: string, body?: unknown) {
  const res = key
    ? await t.app.inject({
        method,
        url: `/v1/admin${url}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      })
    : await adminInject(t.app, method, url, body);
  return { status: res.statusCode, body: (res.body ? res.json() : null) as Json, raw: res.body };
}

let n = 0;
/** An agent with its own key. */
async function agent(name: string): Promise<{ id: string; key: string }> {
  const made = await as(null, 'POST', '/agents', { name: `${name} ${++n}`, timezone: 'America/Chicago' });
  expect(made.status).toBe(201);
  const id = made.body.agent_id as string;
  const key = await as(null, 'POST', `/agents/${id}/keys`);
  return { id, key: key.body.key as string };
}

/** An agency managed by `boss` (made with the boss's own key), and its source. */
async function agencyOf(boss: { id: string; key: string }) {
  const made = await as(boss.key, 'POST', '/agencies', {
    name: 'Prairie Agency',
    fallback_agent_id: boss.id,
  });
  expect(made.status).toBe(201);
  const agencyId = made.body.agency_id as string;
  const source = await as(boss.key, 'POST', `/agencies/${agencyId}/sources`, { name: 'Prairie Vendor' });
  return { agencyId, token: source.body.token as string, sourceId: source.body.source_id as string };
}

const rowsOf = async (sql: string, params: unknown[]) => (await t.db.query(sql, params)).rows;

describe('an agent key cannot push its agency or its producers onto another agent', () => {
  it('When an agency’s fallback key hands the agency to an agent it cannot see, then 404 AGENT_NOT_FOUND as for an unknown id, and the agency is unchanged', async () => {
    const alice = await agent('Alice');
    const bob = await agent('Bob');
    const { agencyId } = await agencyOf(bob);
    const unknown = '0190a000-0000-7000-8000-00000000beef';
    const toAlice = await as(bob.key, 'PATCH', `/agencies/${agencyId}`, { fallback_agent_id: alice.id });
    const toNobody = await as(bob.key, 'PATCH', `/agencies/${agencyId}`, { fallback_agent_id: unknown });
    expect(toAlice.status).toBe(404);
    expect(toAlice.body).toEqual(toNobody.body);
    expect(toAlice.body).toMatchObject({ error_code: 'AGENT_NOT_FOUND' });
    expect((await as(bob.key, 'GET', `/agencies/${agencyId}`)).body).toMatchObject({
      fallback_agent_id: bob.id,
    });
    expect((await as(alice.key, 'GET', `/agencies/${agencyId}`)).status).toBe(404);
    // Naming itself is no change; the operator may hand the agency to anyone.
    expect((await as(bob.key, 'PATCH', `/agencies/${agencyId}`, { fallback_agent_id: bob.id })).status).toBe(
      200,
    );
    const handed = await as(null, 'PATCH', `/agencies/${agencyId}`, { fallback_agent_id: alice.id });
    expect(handed).toMatchObject({ status: 200, body: { fallback_agent_id: alice.id } });
  });

  it('When an agency’s fallback key makes another agent its producer, then 404 AGENT_NOT_FOUND whether the agent exists or not, and its vendors’ leads stay in the agency', async () => {
    const alice = await agent('Alice');
    const bob = await agent('Bob');
    const { agencyId, token } = await agencyOf(bob);
    const existing = await as(bob.key, 'PUT', `/agencies/${agencyId}/members/${alice.id}`, {
      licensed_states: ['NY'],
    });
    const madeUp = await as(
      bob.key,
      'PUT',
      `/agencies/${agencyId}/members/0190a000-0000-7000-8000-00000000beef`,
      {
        licensed_states: ['NY'],
      },
    );
    expect(existing.status).toBe(404);
    expect(existing.body).toEqual(madeUp.body);
    expect(existing.raw).not.toContain('Alice');
    expect(await rowsOf('SELECT 1 FROM agency_members WHERE agent_id = $1', [alice.id])).toEqual([]);
    const lead = await deliver(t.app, token, { name: 'New Yorker', state: 'NY', phone: '(212) 555-0142' });
    expect(lead.json()).toMatchObject({ agent_id: bob.id });
    // The fallback producer may still make itself a producer of its own agency.
    const self = await as(bob.key, 'PUT', `/agencies/${agencyId}/members/${bob.id}`, {
      licensed_states: ['NY'],
    });
    expect(self.status).toBe(201);
  });

  it('When an agent key changes its login email, then 403 whether the address is taken or free; its own address again is no change', async () => {
    const alice = await agent('Alice');
    const bob = await agent('Bob');
    expect((await as(null, 'PATCH', `/agents/${alice.id}`, { email: `alice${n}@example.com` })).status).toBe(
      200,
    );
    expect((await as(null, 'PATCH', `/agents/${bob.id}`, { email: `bob${n}@example.com` })).status).toBe(200);
    const taken = await as(bob.key, 'PATCH', `/agents/${bob.id}`, { email: `alice${n}@example.com` });
    const free = await as(bob.key, 'PATCH', `/agents/${bob.id}`, { email: `free${n}@example.com` });
    expect(taken.status).toBe(403);
    expect(taken.body).toEqual(free.body);
    expect(taken.body).toMatchObject({ error_code: 'FORBIDDEN' });
    const same = await as(bob.key, 'PATCH', `/agents/${bob.id}`, {
      email: `BOB${n}@example.com`,
      name: 'Robert',
    });
    expect(same).toMatchObject({
      status: 200,
      body: { name: 'Robert', email: expect.stringMatching(new RegExp(`^bob${n}@example\\.com$`, 'i')) },
    });
    // The operator is told, as before.
    const operator = await as(null, 'PATCH', `/agents/${bob.id}`, { email: `alice${n}@example.com` });
    expect(operator).toMatchObject({ status: 409, body: { error_code: 'EMAIL_TAKEN' } });
  });
});

describe('producers join by invitation and may always leave', () => {
  it('When the agency’s manager invites and the producer accepts with its own key, then it is a producer with the invited terms and gets the agency’s leads', async () => {
    const boss = await agent('Boss');
    const ann = await agent('Ann');
    const { agencyId, token } = await agencyOf(boss);
    const invited = await as(boss.key, 'POST', `/agencies/${agencyId}/invitations`, {
      licensed_states: ['tx', 'OK'],
      weight: 2,
      daily_cap: 40,
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      agency_id: agencyId,
      agency_name: 'Prairie Agency',
      licensed_states: ['OK', 'TX'],
      weight: 2,
      daily_cap: 40,
      active: true,
    });
    const days = (Date.parse(String(invited.body.expires_at)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const id = invited.body.invitation_id as string;
    expect((await as(boss.key, 'GET', `/agencies/${agencyId}/invitations`)).body).toMatchObject({
      invitations: [{ invitation_id: id }],
    });

    const accepted = await as(ann.key, 'POST', `/agencies/${agencyId}/invitations/${id}/accept`);
    expect(accepted).toMatchObject({
      status: 201,
      body: { agency_id: agencyId, agency_name: 'Prairie Agency', licensed_states: ['OK', 'TX'], weight: 2 },
    });
    expect((await as(ann.key, 'GET', `/agents/${ann.id}/memberships`)).body).toMatchObject({
      memberships: [{ agency_id: agencyId, agency_name: 'Prairie Agency', daily_cap: 40, active: true }],
    });
    expect((await as(boss.key, 'GET', `/agencies/${agencyId}`)).body).toMatchObject({
      members: [{ agent_id: ann.id, licensed_states: ['OK', 'TX'] }],
    });
    expect((await as(boss.key, 'GET', `/agencies/${agencyId}/invitations`)).body).toEqual({
      invitations: [],
    });
    const lead = await deliver(t.app, token, { name: 'Texan', state: 'TX' });
    expect(lead.json()).toMatchObject({ agent_id: ann.id });

    // Now the manager sees the producer: it may change its terms, by the same key.
    const paused = await as(boss.key, 'PUT', `/agencies/${agencyId}/members/${ann.id}`, {
      licensed_states: ['TX'],
      active: false,
    });
    expect(paused).toMatchObject({ status: 200, body: { agent_id: ann.id, active: false } });
    // The producer does not manage the agency: it reads nothing of it but its own membership.
    expect((await as(ann.key, 'GET', `/agencies/${agencyId}`)).status).toBe(404);
  });

  it('When an invitation is accepted twice, expired, withdrawn, of another agency or made up, then 404 INVITATION_NOT_FOUND and nobody joins by it', async () => {
    const boss = await agent('Boss');
    const ann = await agent('Ann');
    const cy = await agent('Cy');
    const { agencyId } = await agencyOf(boss);
    const other = await agencyOf(await agent('Other boss'));
    const invite = async () =>
      (await as(boss.key, 'POST', `/agencies/${agencyId}/invitations`, { licensed_states: ['TX'] })).body
        .invitation_id as string;
    const accept = (key: string, agency: string, id: string) =>
      as(key, 'POST', `/agencies/${agency}/invitations/${id}/accept`);
    const notFound = { status: 404, body: { error_code: 'INVITATION_NOT_FOUND' } };

    const used = await invite();
    expect((await accept(ann.key, agencyId, used)).status).toBe(201);
    expect(await accept(cy.key, agencyId, used)).toMatchObject(notFound);
    expect(await accept(ann.key, agencyId, used)).toMatchObject(notFound);

    const expired = await invite();
    await t.db.query(
      `UPDATE agency_invitations SET expires_at = now() - interval '1 second' WHERE invitation_id = $1`,
      [expired],
    );
    expect(await accept(cy.key, agencyId, expired)).toMatchObject(notFound);

    const withdrawn = await invite();
    expect((await as(boss.key, 'DELETE', `/agencies/${agencyId}/invitations/${withdrawn}`)).status).toBe(204);
    expect(await accept(cy.key, agencyId, withdrawn)).toMatchObject(notFound);
    expect(await as(boss.key, 'DELETE', `/agencies/${agencyId}/invitations/${withdrawn}`)).toMatchObject(
      notFound,
    );

    const elsewhere = await invite();
    expect(await accept(cy.key, other.agencyId, elsewhere)).toMatchObject(notFound);
    expect(await accept(cy.key, agencyId, '0190a000-0000-4000-8000-00000000beef')).toMatchObject(notFound);
    expect(await accept(cy.key, agencyId, 'not-an-id')).toMatchObject(notFound);

    // The operator adds producers itself; an invitation is the producer's to accept.
    expect(await as(null, 'POST', `/agencies/${agencyId}/invitations/${elsewhere}/accept`)).toMatchObject({
      status: 403,
      body: { error_code: 'FORBIDDEN' },
    });
    expect(await rowsOf('SELECT 1 FROM agency_members WHERE agent_id = $1', [cy.id])).toEqual([]);
  });

  it('When two producers accept one invitation at the same instant, then exactly one joins', async () => {
    const boss = await agent('Boss');
    const racers = await Promise.all([agent('Racer'), agent('Racer')]);
    const { agencyId } = await agencyOf(boss);
    const id = (await as(boss.key, 'POST', `/agencies/${agencyId}/invitations`, { licensed_states: ['TX'] }))
      .body.invitation_id as string;
    const answers = await Promise.all(
      racers.map((r) =>
        fetch(`${baseUrl}/v1/admin/agencies/${agencyId}/invitations/${id}/accept`, {
          method: 'POST',
          headers: { authorization: `Bearer ${r.key}` },
        }).then((res) => res.status),
      ),
    );
    expect(answers.sort()).toEqual([201, 404]);
    expect(await rowsOf('SELECT agent_id FROM agency_members WHERE agency_id = $1', [agencyId])).toHaveLength(
      1,
    );
  });

  it('When a producer leaves with its own key, then it is no longer a producer and the agency’s next leads go elsewhere; it cannot remove another', async () => {
    const boss = await agent('Boss');
    const ann = await agent('Ann');
    const ben = await agent('Ben');
    const { agencyId, token } = await agencyOf(boss);
    for (const p of [ann, ben]) {
      const id = (
        await as(boss.key, 'POST', `/agencies/${agencyId}/invitations`, { licensed_states: ['TX'] })
      ).body.invitation_id as string;
      expect((await as(p.key, 'POST', `/agencies/${agencyId}/invitations/${id}/accept`)).status).toBe(201);
    }
    expect((await as(ann.key, 'DELETE', `/agencies/${agencyId}/members/${ben.id}`)).status).toBe(404);
    expect((await as(ann.key, 'DELETE', `/agencies/${agencyId}/members/${ann.id}`)).status).toBe(204);
    expect((await as(ann.key, 'GET', `/agents/${ann.id}/memberships`)).body).toEqual({ memberships: [] });
    // Gone: a second leave is the 404 of an agency it has nothing to do with.
    expect(await as(ann.key, 'DELETE', `/agencies/${agencyId}/members/${ann.id}`)).toMatchObject({
      status: 404,
      body: { error_code: 'AGENCY_NOT_FOUND' },
    });
    for (let i = 0; i < 3; i++) {
      const lead = await deliver(t.app, token, { name: `Texan ${i}`, state: 'TX' });
      expect(lead.json()).toMatchObject({ agent_id: ben.id });
    }
  });

  it('When an operator-added producer leaves with its own key, then it may, as any producer', async () => {
    const boss = await agent('Boss');
    const ann = await agent('Ann');
    const { agencyId } = await agencyOf(boss);
    expect(
      (await as(null, 'PUT', `/agencies/${agencyId}/members/${ann.id}`, { licensed_states: ['TX'] })).status,
    ).toBe(201);
    expect((await as(ann.key, 'DELETE', `/agencies/${agencyId}/members/${ann.id}`)).status).toBe(204);
  });

  it('When the fallback queue’s lead is given to an agent that is no producer of the agency, then 404 AGENT_NOT_FOUND and the lead stays', async () => {
    const boss = await agent('Boss');
    const outsider = await agent('Outsider');
    const { agencyId, token } = await agencyOf(boss);
    const queued = (await deliver(t.app, token, { name: 'Nobody’s', state: 'TX' })).json().lead_id as string;
    const given = await as(boss.key, 'POST', `/agencies/${agencyId}/fallback-queue/${queued}/assign`, {
      agent_id: outsider.id,
    });
    expect(given).toMatchObject({ status: 404, body: { error_code: 'AGENT_NOT_FOUND' } });
    expect(await rowsOf('SELECT agent_id FROM leads WHERE lead_id = $1', [queued])).toEqual([
      { agent_id: boss.id },
    ]);
  });
});
