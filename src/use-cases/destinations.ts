import { checkDestinationUrl } from '../automations/destination-address.ts';
import { createDestination, type DestinationView } from '../automations/destination-repository.ts';
import type { DestinationKind } from '../automations/payloads.ts';
import type { Queryable } from '../db/index.ts';
import type { OutboxTopic } from '../outbox/topics.ts';

export interface NewDestination {
  kind: DestinationKind;
  url: string;
  /** The topics it receives; null or absent: every topic. */
  events?: OutboxTopic[] | null;
}

export type AddedDestination =
  { ok: true; destination: DestinationView; secret: string } | { ok: false; reason: string };

/**
 * Sends a source's events to a URL: only a public http(s) one (a private network only when the
 * operator allows it). The signing secret comes back once, here.
 */
export async function addDestination(
  db: Queryable,
  source: { agent_id: string; source_id: string },
  input: NewDestination,
  allowPrivate: boolean,
): Promise<AddedDestination> {
  const url = input.url.trim();
  const check = await checkDestinationUrl(url, allowPrivate);
  if (!check.ok) return { ok: false, reason: check.reason };
  const events = input.events ? [...new Set(input.events)] : null;
  const { destination, secret } = await createDestination(db, {
    agent_id: source.agent_id,
    source_id: source.source_id,
    kind: input.kind,
    url,
    events,
  });
  return { ok: true, destination, secret };
}
