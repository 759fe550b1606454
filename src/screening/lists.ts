/** The suppression lists (docs/compliance.md): the agent's or agency's own do-not-call list, known serial TCPA plaintiffs, existing customers, the National Do Not Call Registry. */
export const SUPPRESSION_LISTS = ['dnc', 'litigator', 'customer', 'registry'] as const;
export type SuppressionList = (typeof SUPPRESSION_LISTS)[number];

/** A seller must download the registry again at least every 31 days (16 CFR 310.4(b)(3)(iv)). */
export const REGISTRY_MAX_AGE_MS = 31 * 86_400_000;

/** Whether a registry list loaded at `loadedAt` is too old to rely on at `now`. */
export const isStale = (loadedAt: Date, now: Date): boolean =>
  now.getTime() - loadedAt.getTime() > REGISTRY_MAX_AGE_MS;

/** One list a lead is on: by which of its contacts, and since when that entry is on the list. */
export interface ScreeningEntry {
  list: SuppressionList;
  matched: 'phone' | 'email';
  since: string;
}
