/** How much of a refused delivery is kept, and for how long samples are kept (docs/admin-api.md). */
export const SAMPLE_LIMITS = {
  /** The raw body of a refused delivery is kept up to this many bytes (64 KiB); the rest is cut. */
  rawBodyMaxBytes: 65_536,
  /** The newest refused deliveries kept per source; older ones are forgotten as new ones arrive. */
  refusedPerSource: 100,
  /** Samples of either kind are deleted this many days after they arrived. */
  retentionDays: 30,
} as const;
