import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the dispatcher's queues look like now, read when Prometheus scrapes. */
export interface QueueStats {
  /** Outbox messages not yet dispatched, and the age of the oldest in seconds. */
  outboxDepth: number;
  outboxLagSeconds: number;
  /** Webhook deliveries pending or being sent, and dead ones (the retry budget spent). */
  webhooksPending: number;
  deadLetters: number;
  /** Texts whose time has come and that are not sent yet (those being sent included). */
  textsDue: number;
  /** Leads whose next cadence step's time has come and that is not done yet. */
  cadenceStepsDue: number;
  /** Appointment reminders whose time has come and that are not done yet. */
  remindersDue: number;
  /** Meta leads waiting to be fetched (or being fetched). */
  metaLeadsPending: number;
  /** Sources whose page access token the Graph API refused (error 190): the agent must reconnect Meta. */
  metaReconnectNeeded: number;
  /** Registry suppression lists (an agent's or an agency's) loaded more than 31 days ago. */
  staleRegistryLists: number;
}

/** The process's Prometheus metrics, served at `GET /metrics` (docs/admin-api.md, "Metrics"). */
export interface Metrics {
  registry: Registry;
  /** Every gateway answer, by outcome (created, merged, replayed, listened, no_show, ignored, queued, challenge, rejected) and error code. */
  deliveries: Counter<'outcome' | 'code'>;
  /** Leads written, by outcome: created or merged. */
  leads: Counter<'outcome'>;
  /** Webhook attempts, by outcome: delivered, failed, dead, gone. */
  webhooks: Counter<'outcome'>;
  /** Texts, by outcome: sent, failed, suppressed, deferred. */
  texts: Counter<'outcome'>;
  /** Meta lead fetches, by outcome: written (a lead created or merged), sampled, refused, failed, dead, stopped. */
  metaFetches: Counter<'outcome'>;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
}

export function createMetrics(queue?: () => Promise<QueueStats>): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'leadgate_' });
  const registers = [registry];
  if (queue) {
    // One read per scrape fills all the queue gauges.
    let pending: Promise<QueueStats> | null = null;
    const read = () => (pending ??= queue().finally(() => setTimeout(() => (pending = null), 0)));
    const gauge = (name: string, help: string, pick: (s: QueueStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(pick(await read()));
        },
      });
    gauge('leadgate_outbox_depth', 'Outbox messages not yet dispatched', (s) => s.outboxDepth);
    gauge(
      'leadgate_outbox_lag_seconds',
      'Age of the oldest outbox message not yet dispatched',
      (s) => s.outboxLagSeconds,
    );
    gauge(
      'leadgate_webhooks_pending',
      'Webhook deliveries waiting to be sent or retried',
      (s) => s.webhooksPending,
    );
    gauge('leadgate_dead_letters', 'Webhook deliveries whose retry budget is spent', (s) => s.deadLetters);
    gauge(
      'leadgate_texts_due',
      'Texts whose time has come and that are not sent yet (those being sent included)',
      (s) => s.textsDue,
    );
    gauge(
      'leadgate_cadence_steps_due',
      'Cadence steps whose time has come and that are not done yet, one at most per lead',
      (s) => s.cadenceStepsDue,
    );
    gauge(
      'leadgate_reminders_due',
      'Appointment reminders whose time has come and that are not done yet',
      (s) => s.remindersDue,
    );
    gauge(
      'leadgate_meta_leads_pending',
      'Meta leads announced and not fetched yet (those being fetched included)',
      (s) => s.metaLeadsPending,
    );
    gauge(
      'leadgate_meta_reconnect_needed',
      'Sources whose Meta page access token the Graph API refused (error 190): reconnect Meta',
      (s) => s.metaReconnectNeeded,
    );
    gauge(
      'leadgate_registry_lists_stale',
      'Do Not Call Registry lists loaded more than 31 days ago: leads without consent evidence get no automatic contact until reloaded',
      (s) => s.staleRegistryLists,
    );
  }
  return {
    registry,
    deliveries: new Counter({
      name: 'leadgate_deliveries_total',
      help: 'Gateway answers by outcome and error code',
      labelNames: ['outcome', 'code'],
      registers,
    }),
    leads: new Counter({
      name: 'leadgate_leads_total',
      help: 'Leads written by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    webhooks: new Counter({
      name: 'leadgate_webhook_attempts_total',
      help: 'Webhook attempts by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    texts: new Counter({
      name: 'leadgate_texts_total',
      help: 'Texts by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    metaFetches: new Counter({
      name: 'leadgate_meta_fetches_total',
      help: 'Meta lead fetches by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    requestDuration: new Histogram({
      name: 'leadgate_http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
  };
}
