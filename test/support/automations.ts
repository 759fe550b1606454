import { createDispatcher } from '../../src/automations/dispatcher.ts';
import { textKind } from '../../src/automations/send-texts.ts';
import type { SmsProvider } from '../../src/automations/sms-providers.ts';
import type { HandedText } from '../../src/automations/sms-repository.ts';
import type { AutomationConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/index.ts';
import { jobStep } from '../../src/jobs/runner.ts';

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

/**
 * One round of the texts' kind alone, at `now`: what it claims from the queue and the texts in its
 * hand (as the fan-out of its worker hands them).
 */
export async function textRound(
  db: Database,
  provider: SmsProvider,
  opts: { now: Date; leaseMs: number; handed?: readonly HandedText[] },
) {
  const kind = textKind(provider, { batch: 200, leaseMs: opts.leaseMs, concurrency: 16 }, [
    ...(opts.handed ?? []),
  ]);
  return (await jobStep(db, kind, { leaseMs: opts.leaseMs, now: () => opts.now }).round()).result;
}
