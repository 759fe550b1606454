import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchChromium } from './support/browser.ts';
import { createTestApp, seedSource, type TestApp } from './support/app.ts';
import { countRows } from './support/deliver.ts';

/**
 * The sender client (as built, packages/sender/dist) in Debian's Chromium, on a page of another
 * origin than the gateway: the gateway's CORS answers let a web form send leads. Skipped like the
 * console's browser tests where Chromium is missing.
 */
const DIST = join(import.meta.dirname, '..', 'packages', 'sender', 'dist');

let t: TestApp;
let gateway: string;
let page: string;
let site: Server;
let browser: Browser;
let seeded: Awaited<ReturnType<typeof seedSource>>;

describe.skipIf(!browserAvailable)('the sender client in a browser', () => {
  beforeAll(async () => {
    t = await createTestApp();
    gateway = await t.app.listen({ port: 0, host: '127.0.0.1' });
    seeded = await seedSource(t.db, 'Browser Form Agent');
    // Another origin: a vendor's page that loads the client as an ES module.
    site = createServer((req, res) => {
      const name = (req.url ?? '/').replace(/^\/sender\//, '');
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>form</title>');
      } else if (/^[\w-]+\.js$/.test(name) && existsSync(join(DIST, name))) {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(DIST, name)));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    page = `http://localhost:${(site.address() as AddressInfo).port}`; // not the gateway's origin
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => site?.close(r));
    await t?.close();
  });

  it('When a page of another origin sends leads with the client, then they land; the header token goes through the CORS preflight, and a refusal is read too', async () => {
    const tab = await browser.newPage();
    await tab.goto(page);
    const results = await tab.evaluate(
      async ({ gateway, token }) => {
        const load = new Function('url', 'return import(url)') as (url: string) => Promise<{
          createSender: (o: object) => {
            send: (lead: object, opts?: object) => Promise<Record<string, unknown>>;
          };
        }>;
        const { createSender } = await load('/sender/index.js');
        const inHeader = await createSender({ url: gateway, token }).send({
          name: 'Browser Lead',
          phone: '5125550142',
        });
        const inPath = await createSender({ url: gateway, token, tokenIn: 'path' }).send({
          name: 'Path Lead',
          phone: '5125550143',
        });
        const refused = await createSender({ url: gateway, token }).send({ phone: '5125550144' });
        return { inHeader, inPath, refused };
      },
      { gateway, token: seeded.token },
    );
    expect(results.inHeader).toMatchObject({ ok: true, outcome: 'created', attempts: 1 });
    expect(results.inPath).toMatchObject({ ok: true, outcome: 'created' });
    expect(results.refused).toMatchObject({
      ok: false,
      reason: 'rejected',
      status: 400,
      errorCode: 'MISSING_NAME',
    });
    expect(await countRows(t.db, 'leads', 'agent_id = $1', [seeded.agent_id])).toBe(2);
  });
});
