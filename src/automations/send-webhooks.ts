import type { Database } from '../db/index.ts';
import type { JobKind } from '../jobs/runner.ts';
import { markDelivered, markFailed, webhookJobs, type ClaimedDelivery } from './delivery-repository.ts';
import { checkDestinationUrl } from './destination-address.ts';
import {
  disableDestination,
  markDestinationFailing,
  markDestinationsHealthy,
} from './destination-repository.ts';
import { post } from './post.ts';
import { nextDelay } from '../jobs/retry-schedule.ts';
import { webhookHeaders } from './signing.ts';

export interface WebhookSettings {
  retrySchedule: readonly number[];
  allowPrivateDestinations: boolean;
  timeoutMs: number;
  /** A destination failing this long without one success is disabled. */
  disableAfterMs: number;
  batch: number;
}

export interface WebhookRound {
  delivered: number;
  failed: number;
  dead: number;
  gone: number;
}

/**
 * Webhooks as a kind of job: every delivery claimed is sent once, all at the same time. The
 * deliveries the receivers took are written in one statement when the round's last answer is in (a
 * process that dies before leaves them leased: they are sent again when the lease ends); a failure
 * is written as it comes, with its retry time.
 */
export function webhookKind(settings: WebhookSettings): JobKind<ClaimedDelivery, WebhookRound> {
  return {
    name: 'webhooks',
    queue: webhookJobs,
    batch: settings.batch,
    async handle(db, claimed) {
      const round: WebhookRound = { delivered: 0, failed: 0, dead: 0, gone: 0 };
      const delivered: Array<{ d: ClaimedDelivery; httpStatus: number }> = [];
      await Promise.all(
        claimed.map(async (d) => {
          const outcome = await sendOne(db, d, settings);
          if (typeof outcome === 'number') delivered.push({ d, httpStatus: outcome });
          round[typeof outcome === 'number' ? 'delivered' : outcome]++;
        }),
      );
      await markDelivered(db, delivered);
      await markDestinationsHealthy(
        db,
        delivered.map(({ d }) => d.destination_id),
      );
      return round;
    },
  };
}

/** Sends one delivery: its 2xx status when the receiver took it, else what came of it. */
async function sendOne(
  db: Database,
  d: ClaimedDelivery,
  s: WebhookSettings,
): Promise<number | Exclude<keyof WebhookRound, 'delivered'>> {
  const fail = async (httpStatus: number | null, error: string): Promise<'failed' | 'dead'> => {
    const retryInMs = nextDelay(s.retrySchedule, d.attempts);
    await markFailed(db, d, { httpStatus, error, retryInMs });
    await markDestinationFailing(db, d.destination_id, s.disableAfterMs);
    return retryInMs === null ? 'dead' : 'failed';
  };
  // A host name's addresses are checked as the connection is made (post's publicOnly).
  const address = await checkDestinationUrl(d.url, s.allowPrivateDestinations, { resolve: false });
  if (!address.ok) return fail(null, `not sent: ${address.reason}`);

  const body = JSON.stringify(d.body);
  let status: number;
  try {
    ({ status } = await post(d.url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Leadgate-Webhooks/1',
        ...webhookHeaders(d.secret, d.message_id, new Date(), body),
      },
      body,
      timeoutMs: s.timeoutMs,
      publicOnly: !s.allowPrivateDestinations,
    }));
  } catch (err) {
    return fail(null, err instanceof Error ? err.message : String(err));
  }
  if (status >= 200 && status < 300) return status;
  if (status === 410) {
    // The receiver says the destination is gone for good: stop sending to it at once.
    await markFailed(db, d, {
      httpStatus: 410,
      error: 'destination gone (410)',
      retryInMs: null,
      final: 'canceled',
    });
    await disableDestination(db, d.destination_id, 'gone');
    return 'gone';
  }
  return fail(status, `answered ${status}`);
}
