import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { adminInject } from './app.ts';

/** A browser's cookie jar over `app.inject`, just enough for the console's HTTP tests. */
export class ConsoleClient {
  cookies = new Map<string, string>();
  constructor(
    readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  keep(setCookie: string | string[] | undefined) {
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      if (!name) continue;
      const value = rest.join('=');
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  async get(url: string) {
    const res = await this.app.inject({
      method: 'GET',
      url,
      headers: { cookie: this.header() },
      remoteAddress: this.ip,
    });
    this.keep(res.headers['set-cookie']);
    return res;
  }
  async post(url: string, form: Record<string, string>) {
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
      remoteAddress: this.ip,
    });
    this.keep(res.headers['set-cookie']);
    return res;
  }
  /** The CSRF token of the page's first form. */
  async csrf(url: string) {
    const page = await this.get(url);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    if (!token) throw new Error(`no CSRF token on ${url}: ${page.statusCode}`);
    return token;
  }
  async login(email: string, password: string) {
    return this.post('/console/login', { _csrf: await this.csrf('/console/login'), email, password });
  }
}

export const CONSOLE_PASSWORD = 'a long console passphrase';

/** An agent with a console login (CONSOLE_PASSWORD) and one source, through the admin API. */
export async function agentWithLogin(
  app: FastifyInstance,
  name: string,
  timezone = 'America/Chicago',
): Promise<{ agent_id: string; email: string; token: string; source_id: string }> {
  const email = `${name.toLowerCase().replace(/\W/g, '')}@example.com`;
  const agent = (await adminInject(app, 'POST', '/agents', { name, email, timezone })).json<{
    agent_id: string;
  }>();
  expect(
    (await adminInject(app, 'PUT', `/agents/${agent.agent_id}/password`, { password: CONSOLE_PASSWORD }))
      .statusCode,
  ).toBe(204);
  const source = (
    await adminInject(app, 'POST', `/agents/${agent.agent_id}/sources`, { name: `${name} vendor` })
  ).json<{ token: string; source_id: string }>();
  return { agent_id: agent.agent_id, email, token: source.token, source_id: source.source_id };
}
