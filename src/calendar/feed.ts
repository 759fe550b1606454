import { createHash } from 'node:crypto';
import type { FeedAppointment } from './feed-repository.ts';
import { icsCalendar, type IcsEvent } from './ics.ts';

/** The path a feed is read at: the secret is its last segment, before `.ics`. */
export const FEED_PATH = '/v1/calendar/';

/** The feed URL of a secret, as the agent subscribes to it (PUBLIC_BASE_URL ends in `/v1`). */
export function feedUrl(publicBaseUrl: string, secret: string): string {
  return `${publicBaseUrl}${FEED_PATH.slice('/v1'.length)}${secret}.ics`;
}

/** The console's address, which the events link each lead's page to. */
export function consoleUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/v1\/?$/, '')}/console`;
}

/** How far back the feed reaches, and how long a canceled or moved meeting stays in it as CANCELLED. */
export const FEED_PAST_DAYS = 90;
export const FEED_CLOSED_DAYS = 30;
/** Longer notes are cut in the calendar: the lead page has them whole. */
const NOTES_MAX = 2_000;

const DAY_MS = 86_400_000;

/** The feed's reach at a moment: the `feedAppointments` window. */
export function feedWindow(now: Date): { since: Date; closedSince: Date } {
  return {
    since: new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS),
    closedSince: new Date(now.getTime() - FEED_CLOSED_DAYS * DAY_MS),
  };
}

const TYPE_WORDS: Record<string, string> = { appointment: 'Appointment', follow_up: 'Follow-up call' };

/** One appointment as its calendar event: whom, what, where, and a way back to the lead. Pure. */
export function feedEvent(a: FeedAppointment, minutes: number, consoleUrl: string): IcsEvent {
  const end = a.end ?? a.start + minutes * 60_000;
  const what = TYPE_WORDS[a.schedule_type] ?? 'Appointment';
  const leadUrl = `${consoleUrl}/leads/${a.lead_id}`;
  const notes = a.notes?.trim() ?? '';
  return {
    uid: `${a.uid}@leadgate`,
    sequence: a.sequence,
    start: a.start,
    end,
    modified: a.modified,
    status: a.status === 'booked' || a.status === 'no_show' ? 'CONFIRMED' : 'CANCELLED',
    summary: `${a.name} · ${what}${a.status === 'no_show' ? ' (no-show)' : ''}`,
    description: [
      a.phone ? `Phone: ${dialable(a.phone)}` : 'No phone on the lead',
      `Lead: ${leadUrl}`,
      ...(notes ? ['', notes.length > NOTES_MAX ? `${notes.slice(0, NOTES_MAX)}…` : notes] : []),
    ].join('\n'),
    location: a.join_url,
    url: leadUrl,
  };
}

/** A stored US number (ten digits) as phones offer to dial it: `+1 (312) 555-0142`; others as stored. */
function dialable(phone: string): string {
  const d = /^1?(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return d ? `+1 (${d[1]}) ${d[2]}-${d[3]}` : phone;
}

/** The agent's feed as UTF-8 bytes, with the entity tag that names exactly these bytes. Pure. */
export function feedBody(
  agentName: string,
  appointments: readonly FeedAppointment[],
  minutes: number,
  consoleUrl: string,
): { body: Buffer; etag: string; lastModified: number | null } {
  const events = appointments.map((a) => feedEvent(a, minutes, consoleUrl));
  // Encoded once, for the hash and the answer alike.
  const body = Buffer.from(icsCalendar({ name: `Leadgate · ${agentName}`, refreshMinutes: 15 }, events));
  // Names the bytes for polling, guards nothing: SHA-1 is enough and half SHA-256's time.
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const lastModified = events.length ? events.reduce((last, e) => Math.max(last, e.modified), 0) : null;
  return { body, etag, lastModified };
}

/** Whether an If-None-Match header names this entity tag (weak comparison, as RFC 9110 says for it). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
