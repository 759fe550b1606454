import { createDispatcher } from '../../src/automations/dispatcher.ts';
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
