import type { Queryable } from '../db/index.ts';
import { replaceFeedSecret } from '../calendar/feed-repository.ts';
import { feedUrl } from '../calendar/feed.ts';

/** A new secret feed URL for the agent's calendar; the one before it answers 404 from now on. */
export async function newCalendarFeed(
  db: Queryable,
  publicBaseUrl: string,
  agentId: string,
): Promise<{ url: string }> {
  return { url: feedUrl(publicBaseUrl, await replaceFeedSecret(db, agentId)) };
}
