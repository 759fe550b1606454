/**
 * iCalendar (RFC 5545) as a subscribed feed needs it: escaped text, UTC times, folded lines ending
 * in CRLF. Pure.
 */

/** One meeting as a calendar shows it. Times are epoch milliseconds. */
export interface IcsEvent {
  uid: string;
  sequence: number;
  start: number;
  end: number;
  /** When the event last changed: DTSTAMP and LAST-MODIFIED (a feed has no METHOD, RFC 5545 3.8.7.2). */
  modified: number;
  status: 'CONFIRMED' | 'CANCELLED';
  summary: string;
  description: string;
  location: string | null;
  url: string | null;
}

export interface IcsCalendar {
  /** The calendar's name as apps show it (X-WR-CALNAME). */
  name: string;
  /** How often apps that honour it should fetch the feed again, in minutes. */
  refreshMinutes: number;
}

const CRLF = '\r\n';
const MAX_OCTETS = 75;

const ESCAPED: Record<string, string> = {
  '\\': '\\\\',
  ';': '\\;',
  ',': '\\,',
  '\n': '\\n',
  '\r\n': '\\n',
  '\r': '\\n',
};

/** TEXT as RFC 5545 3.3.11 writes it: backslash, semicolon, comma and new lines escaped; other controls dropped. */
export function icsText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/\r\n|[\\;,\u0000-\u0008\u000a-\u001f\u007f]/g, (c) => ESCAPED[c] ?? '');
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** A UTC DATE-TIME: `20270115T193000Z` (read field by field: no ISO string to cut up, for 20,000 a feed). */
export function icsInstant(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => TWO_DIGITS[n] ?? String(n);
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}T${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
}

/** UTF-8 octets of a code point. */
const octetsOf = (code: number) => (code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);

/**
 * A content line folded at 75 octets (RFC 5545 3.1): each further line starts with a space. A
 * character is never cut across lines, so a name with emoji stays valid UTF-8.
 */
export function foldLine(line: string): string {
  if (line.length <= MAX_OCTETS / 4) return line;
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(line)) {
    if (line.length <= MAX_OCTETS) return line;
    const parts = [line.slice(0, MAX_OCTETS)];
    for (let at = MAX_OCTETS; at < line.length; at += MAX_OCTETS - 1)
      parts.push(line.slice(at, at + MAX_OCTETS - 1));
    return parts.join(`${CRLF} `);
  }
  const parts: string[] = [];
  let start = 0;
  let octets = 0;
  let room = MAX_OCTETS;
  for (let i = 0; i < line.length;) {
    const code = line.codePointAt(i) ?? 0;
    const size = octetsOf(code);
    if (octets + size > room) {
      parts.push(line.slice(start, i));
      start = i;
      octets = 0;
      room = MAX_OCTETS - 1; // the leading space counts
    }
    octets += size;
    i += code > 0xffff ? 2 : 1;
  }
  parts.push(line.slice(start));
  return parts.join(`${CRLF} `);
}

/** An event's lines; only those holding text or a URL can pass 75 octets, so only they are folded. */
function eventLines(e: IcsEvent): string {
  const modified = icsInstant(e.modified);
  let lines =
    `BEGIN:VEVENT${CRLF}${foldLine(`UID:${icsText(e.uid)}`)}${CRLF}` +
    `DTSTAMP:${modified}${CRLF}LAST-MODIFIED:${modified}${CRLF}` +
    `SEQUENCE:${e.sequence}${CRLF}DTSTART:${icsInstant(e.start)}${CRLF}DTEND:${icsInstant(e.end)}${CRLF}` +
    `STATUS:${e.status}${CRLF}${foldLine(`SUMMARY:${icsText(e.summary)}`)}${CRLF}` +
    `${foldLine(`DESCRIPTION:${icsText(e.description)}`)}${CRLF}`;
  if (e.location) lines += `${foldLine(`LOCATION:${icsText(e.location)}`)}${CRLF}`;
  if (e.url) lines += `${foldLine(`URL:${e.url}`)}${CRLF}`;
  return `${lines}END:VEVENT${CRLF}`;
}

/** The whole feed: the calendar's head and its events, every line folded and ended in CRLF. */
export function icsCalendar(calendar: IcsCalendar, events: readonly IcsEvent[]): string {
  const refresh = `PT${calendar.refreshMinutes}M`;
  const head = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Leadgate//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    foldLine(`X-WR-CALNAME:${icsText(calendar.name)}`),
    `REFRESH-INTERVAL;VALUE=DURATION:${refresh}`,
    `X-PUBLISHED-TTL:${refresh}`,
  ];
  return `${head.join(CRLF)}${CRLF}${events.map(eventLines).join('')}END:VCALENDAR${CRLF}`;
}
