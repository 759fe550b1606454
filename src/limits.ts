/**
 * Every fixed limit of the service, in one place: the code, the OpenAPI document and the tests read
 * them from here. What senders see of them is stated in docs/sender-contract.md.
 */
export const LIMITS = {
  /** Largest delivery body, inclusive (256 KiB). */
  maxBodyBytes: 262_144,
  /**
   * How long any request may take to arrive whole, headers and body: a client that stalls is
   * answered 408 and its connection closed, so stalled uploads cannot hold connections forever.
   */
  requestTimeoutMs: 30_000,
  /** Deepest bracket nesting of a delivery body (JSON, XML elements, form fields holding JSON). */
  maxJsonDepth: 32,
  /** Most members (object keys, list items, XML elements, form fields) in one delivery body. */
  maxBodyMembers: 5_000,
  /** How long an idempotency key is remembered. */
  idempotencyWindowHours: 24,
  /** Longest idempotency key, in characters. */
  idempotencyKeyMaxLength: 255,
  /** A scheduler's invitee URI longer than this is kept as `sha256:<hex>` (it keys several indexes). */
  inviteeUriMaxLength: 255,
  /** How often each server deletes expired idempotency keys and samples past their retention. */
  idempotencyPurgeMs: 10 * 60_000,
  /** The accepted age range of a contact, inclusive (the specification's limit). */
  minAge: 18,
  maxAge: 120,
  /** A booking-scheduler signature older (or newer) than this is refused. */
  signatureToleranceSeconds: 300,
  /** `Retry-After` of a 503 (database unreachable, overload, shutting down), in seconds. */
  unavailableRetryAfterSeconds: 1,
  /** Mean event-loop delay above which requests are answered 503 (the process is saturated). */
  maxEventLoopDelayMs: 1_000,
  /**
   * After SIGTERM the server keeps listening this long, answering 503 and not ready, so a load
   * balancer or a sender sees it leave; then it stops accepting.
   */
  shutdownDrainMs: 500,
  /** How long a shutdown waits for in-flight requests before closing their connections. */
  shutdownGraceMs: 10_000,
  /** How long start-up waits for an unreachable database before giving up. */
  startupDatabaseWaitMs: 30_000,
  /** `serve --workers N`: the longest wait before a worker that keeps dying is started again. */
  workerRestartMaxMs: 30_000,
  /** Attempts of one delivery transaction that the database aborts as a deadlock or serialization failure. */
  transactionAttempts: 3,
  /**
   * How long a process remembers that a token is unknown, so a flood of made-up tokens is answered
   * 401 without a database round trip each; and how many such tokens it remembers at most.
   */
  unknownTokenCacheMs: 5_000,
  unknownTokenCacheSize: 10_000,
  /**
   * How long a process keeps a valid token's source in memory (every write still has the database
   * check the token and the source's revision), how many at most, and how many token lookups one
   * query makes.
   */
  knownTokenCacheMs: 60_000,
  knownTokenCacheSize: 10_000,
  tokenLookupBatch: 500,
  /**
   * How often, at most, a process asks whether any source has a token issued without a check
   * (before checks were issued): while one does, a token that fails the check is looked up all the
   * same (src/sources/token-checks.ts).
   */
  uncheckedTokensRecheckMs: 60_000,
  /**
   * A server's JavaScript heap may grow this many percent past what its last full collection kept
   * before the next one (HEAP_GROWTH_PERCENT): V8's own, larger factor lets a busy server's memory
   * swing widely. Set as node starts (cli/node-flags.ts).
   */
  heapGrowthPercent: 50,
  /**
   * An embedded server, which holds its database as well, keeps its young generation's semi-space
   * to 4 MB of V8's 16 (SEMI_SPACE_MB): memory is what a small machine is short of. Set as node
   * starts (cli/node-flags.ts).
   */
  embeddedSemiSpaceMb: 4,
  /** Resends (source, key, body digest) each process remembers as having used their key. */
  exactRetriesRemembered: 20_000,
  /** Contacts (agent, phone or email) each process remembers having written: their next delivery is a merge. */
  recentContactsRemembered: 20_000,
  /** Rate-limit buckets kept in memory; beyond this, full buckets are forgotten. */
  rateLimitBuckets: 50_000,
  /**
   * The embedded database's shared buffers in MB (a server's default is 128; the setting is
   * EMBEDDED_SHARED_BUFFERS_MB), and how often it is vacuumed and analyzed: PGlite runs PostgreSQL
   * in single-user mode, without autovacuum.
   */
  embeddedSharedBuffersMb: 8,
  embeddedMaintenanceMs: 30_000,
  /** The embedded database's thread's young generation, in MB (db/pglite-thread.ts). */
  embeddedThreadYoungMb: 4,
  /**
   * An embedded server gives the memory it freed back to the system (db/freed-memory.ts, on Linux
   * with glibc): blocks of this size and more as soon as they are freed, the rest this often.
   */
  embeddedMapAtLeastBytes: 128 * 1024,
  embeddedTrimMs: 5_000,
  /** …and at the next check of this many ms once the process's memory grew by embeddedTrimGrownMb. */
  embeddedTrimCheckMs: 1_000,
  embeddedTrimGrownMb: 32,
  /** How often the tables that grew by a tenth since their statistics are looked for (and analyzed). */
  statisticsCheckMs: 2_000,
  /** PostgreSQL connections per process, and how long to wait for one. */
  pgPoolSize: 10,
  /**
   * A shared statement's round trips a process runs at once on PostgreSQL (db/together.ts: new
   * contacts, merges, Listen samples); the embedded database runs one.
   */
  sharedStatements: 4,
  pgConnectTimeoutMs: 5_000,
  /** While no host of DATABASE_URL takes writes, how long calls are refused before the hosts are asked again. */
  primaryRetryMs: 250,
  /** Database calls that may wait for a connection before more are refused (503), by default. */
  dbMaxWaiting: 100,
  /** Admin API: page sizes, list lengths, input lengths, agenda windows. */
  leadsPageDefault: 50,
  leadsPageMax: 200,
  /** Phones and emails one request adds to a suppression list (the importer sends batches of half). */
  suppressionsPerRequest: 10_000,
  /** Entries a page of a suppression list shows, by default and at most. */
  suppressionsPageDefault: 100,
  suppressionsPageMax: 1_000,
  /** The largest price a source may put on a lead, in cents ($1,000,000). */
  priceMaxCents: 100_000_000,
  /** The largest premium a sale may have, in cents: what the database's integer holds. */
  premiumMaxCents: 2_147_483_647,
  /** The earliest `sold_at` a sale may be recorded with. */
  saleEarliest: '2000-01-01T00:00:00Z',
  /** How often a text held for the agent's reading is looked at again (reading it sends it at once). */
  heldTextRecheckMs: 3600_000,
  /** A text an agent sends from the console or the API: Twilio's limit of one message (10 segments). */
  answerMaxLength: 1600,
  /** An inbound text kept whole up to this many characters; the rest is cut, with a note. */
  inboundMaxLength: 5000,
  /** How long a prospect's text lets the agent answer outside calling hours. */
  answerWindowMs: 24 * 3600_000,
  /** Conversations the inbox lists. */
  conversationsListed: 200,
  /** Days an invitation to produce for an agency may be accepted. */
  invitationValidDays: 7,
  /** Agents a page of GET /v1/admin/agents lists, by default and at most. */
  agentsPageDefault: 50,
  agentsPageMax: 500,
  samplesListed: 100,
  eventsListed: 100,
  nameMaxLength: 200,
  /** Characters of an agent's note on a lead. */
  noteMaxLength: 2000,
  /** Console passwords: at least this many characters, at most the max. */
  passwordMinLength: 12,
  passwordMaxLength: 1024,
  emailMaxLength: 254,
  /** Console logins: this many failures per email or per client address within the window → 429. */
  loginFailuresAllowed: 10,
  loginFailureWindowMs: 15 * 60_000,
  /** A source's own rate limit (PATCH /sources/:id), at most (the database's CHECK holds the same). */
  sourceRateMaxRps: 10_000,
  sourceRateMaxBurst: 100_000,
  /** Dial queue: a task marked "no answer" comes back after this long; this many calls close it. */
  noAnswerRetryMs: 3600_000,
  noAnswerCallsMax: 3,
  /** A console session lasts this long without a new login. */
  sessionMaxAgeMs: 12 * 3600_000,
  searchMaxLength: 200,
  timezoneMaxLength: 64,
  signingKeyMaxLength: 1024,
  /** The longest Meta secret, verify token or Google key a source takes (page tokens run to a few hundred). */
  credentialMaxLength: 2048,
  agendaDefaultDays: 30,
  agendaMaxDays: 366,
  /** The lead report's period: its default, and the longest one request may ask. */
  reportDefaultDays: 30,
  reportMaxDays: 366,
  /** How long the OpenAPI document may be cached. */
  openApiCacheSeconds: 300,
  /** How long the CLI waits for the server to answer. */
  cliTimeoutMs: 30_000,
  /** Webhook retries: at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then dead. */
  deliveryRetrySchedule: '0,5s,5m,30m,2h,5h,10h,10h',
  /** How often an idle dispatcher looks for work, and how much it takes at a time. */
  dispatcherPollMs: 250,
  dispatcherBatch: 200,
  /** Meta leads a fetcher claims at a time, and fetches from the Graph API at once. */
  metaFetchBatch: 50,
  metaFetchConcurrency: 8,
  /** Numbers a dispatcher texts at once (each number's texts still go one at a time, in order). */
  textConcurrency: 16,
  /** How long a worker holds a delivery or a text it is sending before another may take it. */
  dispatchLeaseMs: 30_000,
  /** How long a webhook receiver or an SMS provider has to answer. */
  outboundTimeoutMs: 10_000,
  /**
   * How long automatic contact waits for a lead's consent evidence to be verified: past it, the
   * check has failed (`timeout`) and the lead's texts and call task are blocked. Tries within it
   * come after 5 s, 10 s, 20 s, … (docs/consent-and-revocation.md).
   */
  consentCheckDeadlineMs: 10 * 60_000,
  consentRetryBaseMs: 5_000,
  /** Consent checks a worker asks its providers at once. */
  consentCheckBatch: 50,
  /** A destination failing this long without one success is disabled. */
  destinationDisableAfterMs: 5 * 86_400_000,
  /** Rows the admin API lists at most (deliveries, dial queue). */
  listedRows: 200,
  /** The longest text template an agent may set, and the longest destination URL. */
  smsTemplateMaxLength: 640,
  destinationUrlMaxLength: 2048,
} as const;
