import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminInject, createTestApp, type TestApp } from './support/app.ts';
import { testDispatcher } from './support/automations.ts';
import { agentWithLogin, CONSOLE_PASSWORD, ConsoleClient } from './support/console-client.ts';
import { deliver } from './support/deliver.ts';

/**
 * The dial queue's order: oldest lead first, in the API and the console alike.
 */

describe('the dial queue, oldest first', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('When leads delivered moments apart get their call tasks in one dispatcher round, then the API and the console list them in the order they were delivered', async () => {
    const quinn = await agentWithLogin(t.app, 'Quinn');
    const names = Array.from({ length: 8 }, (_, i) => `Queued Prospect ${i + 1}`);
    for (const [i, name] of names.entries()) {
      expect((await deliver(t.app, quinn.token, { name, phone: `31255501${10 + i}` })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await testDispatcher(t.db).runOnce(); // one round: every task made at the same moment
    const api = (await adminInject(t.app, 'GET', `/agents/${quinn.agent_id}/dial-queue`)).json<{
      tasks: Array<{ name: string }>;
    }>();
    expect(api.tasks.map((task) => task.name)).toEqual(names);
    const b = new ConsoleClient(t.app);
    await b.login(quinn.email, CONSOLE_PASSWORD);
    const page = (await b.get('/console/dial-queue')).body;
    const shown = names.map((name) => page.indexOf(name));
    expect(shown.every((at) => at >= 0)).toBe(true);
    expect(shown).toEqual([...shown].sort((x, y) => x - y));
  });
});
