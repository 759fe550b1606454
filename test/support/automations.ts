import { createDispatcher } from '../../src/automations/dispatcher.ts';
import type { SmsProvider } from '../../src/automations/sms-providers.ts';
import type { AutomationConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/index.ts';

/** The automations' settings in tests: no dispatcher of the app's own, local receivers allowed. */
export const testAutomationConfig = (retrySchedule: number[] = [0]): AutomationConfig => ({
  dispatcherInServe: false,
  retrySchedule,
  allowPrivateDestinations: true,
  sms: { provider: 'recorder' },
});

const quiet = { info: () => undefined, warn: () => undefined };

/**
 * A dispatcher that logs nothing; `opts` as for createDispatcher (clock, SMS provider, lease,
 * metrics); `config` changes the test settings (private destinations refused, say).
 */
export const testDispatcher = (
  db: Database,
  retrySchedule?: number[],
  opts: Parameters<typeof createDispatcher>[3] = {},
  config: Partial<AutomationConfig> = {},
) => createDispatcher(db, { ...testAutomationConfig(retrySchedule), ...config }, quiet, opts);

/**
 * An SMS provider that has not answered: it notes each number it is asked to text (`asked`, as
 * `+1…`) and answers them all when `release()` is called.
 */
export function heldSmsProvider() {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const asked: string[] = [];
  const sms: SmsProvider = {
    name: 'http',
    async send(text) {
      asked.push(text.to);
      await held;
      return { id: null };
    },
  };
  return { sms, asked, release: () => release() };
}
