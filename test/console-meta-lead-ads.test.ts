import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';

/**
 * Meta Lead Ads on the sources page: connecting, the settings never shown again, and reconnecting.
 */

describe('Meta Lead Ads on the sources page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('When the agent sets the Meta settings, then the card says connected, the page never shows them, and blank fields change nothing', async () => {
    const gina = await agentWithLogin(t.app, 'Gina');
    const b = new ConsoleClient(t.app);
    await b.login(gina.email, CONSOLE_PASSWORD);
    const [source] = (
      await t.db.query<{ source_id: string }>('SELECT source_id FROM sources WHERE agent_id = $1', [
        gina.agent_id,
      ])
    ).rows;
    const url = `/console/sources/${source?.source_id}/meta`;
    expect((await b.get('/console/sources')).body).toContain('Meta Lead Ads: not connected');
    const saved = await b.post(url, {
      _csrf: await b.csrf('/console/sources'),
      page_access_token: 'EAAG-console-page-token',
      app_secret: 'console-app-secret',
      verify_token: 'console-verify',
      google_key: '',
      mode: 'live',
    });
    expect(saved.statusCode).toBe(303);
    let page = (await b.get('/console/sources')).body;
    expect(page).toContain('Meta Lead Ads: connected');
    expect(page).toContain('no Google lead form key');
    for (const secret of ['EAAG-console-page-token', 'console-app-secret', 'console-verify'])
      expect(page).not.toContain(secret);

    // Blank password fields leave the settings as they are; the mode still changes.
    await b.post(url, { _csrf: await b.csrf('/console/sources'), page_access_token: '', mode: 'listen' });
    page = (await b.get('/console/sources')).body;
    expect(page).toContain('Meta Lead Ads: connected, Listen');

    // The Graph API refused the token: the card says to reconnect.
    await t.db.query('UPDATE sources SET meta_reconnect_since = now() WHERE source_id = $1', [
      source?.source_id,
    ]);
    expect((await b.get('/console/sources')).body).toContain('Meta: reconnect Meta');

    const tooLong = await b.post(url, {
      _csrf: await b.csrf('/console/sources'),
      app_secret: 's'.repeat(2049),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('nothing was changed');

    await b.post(url, { _csrf: await b.csrf('/console/sources'), remove: '1' });
    expect((await b.get('/console/sources')).body).toContain('Meta Lead Ads: not connected');
  });
});
