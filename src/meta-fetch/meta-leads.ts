import { nextDelay } from '../jobs/retry-schedule.ts';
import { LIMITS } from '../limits.ts';
import { isTransientDbError } from '../db/database.ts';
import { createRunner, jobStep, type JobKind } from '../jobs/runner.ts';
import type { Database } from '../db/index.ts';
import type { JsonObject } from '../json.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { findMetaSource, type MetaSource } from '../sources/source-repository.ts';
import type { SecretBox } from '../sources/secrets.ts';
import { createGateway, type Gateway } from '../gateway/gateway.ts';
import { fetchGraphLead } from './graph-api.ts';
import { recordListenSample } from '../gateway/listen.ts';
import { failMetaLead, finishMetaLead, metaJobs, stopMetaLead, type MetaLeadJob } from './meta-jobs.ts';
import { leadDelivery } from '../gateway/live-delivery.ts';
import { keepRefused } from '../gateway/refused-sample.ts';
import { isRefusedByTerms, rejected } from '../gateway/result.ts';
import type { SourceClaim } from '../gateway/source-directory.ts';
import { prepareSourceLead } from '../gateway/source-rules.ts';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface MetaFetcherOptions {
  secrets: SecretBox;
  /** `META_GRAPH_URL`: the Graph API with its version, without a trailing slash. */
  graphUrl: string;
  /** The outbox's retry schedule (DELIVERY_RETRY_SCHEDULE): 0 first, then the wait after each failure. */
  retrySchedule: readonly number[];
  log: Log;
  metrics?: Metrics;
  leaseMs?: number;
}

export interface MetaFetcher {
  /** One round: claim the due jobs, fetch each, write its lead (or sample); how many it took. */
  runOnce(): Promise<number>;
  start(): void;
  /** A job was just queued: look now rather than at the next poll. */
  wake(): void;
  /** Stops after the round in progress. */
  stop(): Promise<void>;
}

/** What became of one job, for the metrics. */
type Outcome = 'written' | 'sampled' | 'refused' | 'failed' | 'dead' | 'stopped';

/**
 * The worker side of a Meta envelope (decision 0061): each queued leadgen_id is fetched from the
 * Graph API with the source's page access token and written through the gateway's own write path,
 * as a live delivery of the lead's `field_data` to that source (or a Listen sample, for a Listen
 * source). Runs wherever the dispatcher runs; several may share one database.
 */
export function createMetaFetcher(db: Database, opts: MetaFetcherOptions): MetaFetcher {
  const gateway = createGateway(db, opts.secrets);
  const leaseMs = opts.leaseMs ?? LIMITS.dispatchLeaseMs;

  const settle = async (job: MetaLeadJob, work: () => Promise<Outcome>): Promise<void> => {
    let outcome: Outcome;
    try {
      outcome = await work();
    } catch (err) {
      opts.log.warn({ err, transient: isTransientDbError(err) }, 'meta lead fetch failed; trying again');
      outcome = await fail(job, 'the lead could not be written');
    }
    opts.metrics?.metaFetches.inc({ outcome });
  };
  const fail = async (job: MetaLeadJob, error: string): Promise<Outcome> => {
    const retryInMs = nextDelay(opts.retrySchedule, job.attempts);
    await failMetaLead(db, job, { error, retryInMs });
    return retryInMs === null ? 'dead' : 'failed';
  };

  const fetchOne = async (job: MetaLeadJob): Promise<Outcome> => {
    const found = await findMetaSource(db, job.agent_id, job.source_id);
    if (!found?.active) return fail(job, 'the source is disabled');
    const sealed = found.meta_page_access_token;
    if (sealed === null) {
      await stopMetaLead(db, job, null, 'no page access token is set');
      return 'stopped';
    }
    const token = opts.secrets.open(sealed, { source_id: job.source_id, purpose: 'meta_page_access_token' });
    if (token === null) return fail(job, 'the page access token does not open with this SECRETS_KEY');
    const answer = await fetchGraphLead(opts.graphUrl, job.leadgen_id, token, LIMITS.outboundTimeoutMs);
    if (answer.kind === 'token_refused') {
      await stopMetaLead(db, job, sealed, answer.error);
      return 'stopped';
    }
    if (answer.kind === 'failed') return fail(job, answer.error);
    return writeLead(gateway, job, found, leadBody(answer.lead, job));
  };

  const writeLead = async (g: Gateway, job: MetaLeadJob, found: MetaSource, body: JsonObject) => {
    const claim: SourceClaim = { source: found.source, tokenHash: found.token_hash, confirmed: true };
    const lead = prepareSourceLead(body, found.source, Date.now());
    if (found.meta_listen) {
      const sampled = await recordListenSample(g, claim, body, lead);
      if (sampled.kind !== 'listened' && !(sampled.kind === 'rejected' && sampled.code === 'MISSING_NAME'))
        return fail(job, `the sample could not be stored (${sampled.kind})`);
      await finishMetaLead(db, job, { status: 'sampled' });
      return 'sampled';
    }
    if (!lead.hasName) {
      const raw = { rawBody: Buffer.from(JSON.stringify(body)), log: opts.log };
      await keepRefused(g.samples, claim, raw, rejected('MISSING_NAME'), { body, lead });
      await finishMetaLead(db, job, { status: 'refused', error: 'MISSING_NAME' });
      return 'refused';
    }
    // The replay key makes a second fetch of the same lead (a fetcher that died before writing the
    // job's outcome) the first one's replay, never a second lead.
    const result = await g.writeDelivery(claim, leadDelivery(lead, `meta-leadgen:${job.leadgen_id}`, null));
    if (result.kind === 'created' || result.kind === 'merged' || result.kind === 'replayed') {
      const leadId = result.kind === 'replayed' ? String(result.answer.lead_id) : result.lead.lead_id;
      await finishMetaLead(db, job, { status: 'done', leadId });
      return 'written';
    }
    if (isRefusedByTerms(result)) {
      const raw = { rawBody: Buffer.from(JSON.stringify(body)), log: opts.log };
      await keepRefused(g.samples, claim, raw, result, { body, lead });
      await finishMetaLead(db, job, { status: 'refused', error: result.code });
      return 'refused';
    }
    if (result.kind === 'rejected' && result.code === 'IDEMPOTENCY_KEY_REUSED') {
      await finishMetaLead(db, job, { status: 'refused', error: result.code });
      return 'refused';
    }
    return fail(job, `the lead was not written (${result.kind === 'rejected' ? result.code : result.kind})`);
  };

  const kind: JobKind<MetaLeadJob, { fetched: number }> = {
    name: 'meta-leads',
    queue: metaJobs,
    batch: LIMITS.metaFetchBatch,
    async handle(_db, jobs) {
      for (let i = 0; i < jobs.length; i += LIMITS.metaFetchConcurrency) {
        await Promise.all(
          jobs.slice(i, i + LIMITS.metaFetchConcurrency).map((job) => settle(job, () => fetchOne(job))),
        );
      }
      return { fetched: jobs.length };
    },
  };
  const step = jobStep(db, kind, { leaseMs });
  const runner = createRunner([step], {
    pollMs: LIMITS.dispatcherPollMs,
    log: opts.log,
    label: 'meta_fetcher',
  });
  return {
    runOnce: async () => (await step.round()).result.fetched,
    start: () => runner.start(),
    wake: () => runner.wake(kind.name),
    stop: () => runner.stop(),
  };
}

/**
 * The lead as a `field_data` delivery would send it: what the Graph API returned, with the ids the
 * envelope announced where the Graph API left them out (it returns `id`, `created_time` and
 * `field_data` unless asked for more).
 */
function leadBody(fetched: JsonObject, job: MetaLeadJob): JsonObject {
  const body: JsonObject = { ...fetched };
  const ids = {
    id: job.leadgen_id,
    form_id: job.form_id,
    ad_id: job.ad_id,
    page_id: job.page_id,
    created_time: job.created_time,
  };
  for (const [key, value] of Object.entries(ids))
    if (value !== null && !Object.hasOwn(body, key)) body[key] = value;
  return body;
}
