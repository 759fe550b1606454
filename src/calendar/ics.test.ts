import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { foldLine, icsCalendar, icsInstant, icsText, type IcsEvent } from './ics.ts';

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

const event = (over: Partial<IcsEvent> = {}): IcsEvent => ({
  uid: 'a1@leadgate',
  sequence: 0,
  start: Date.parse('2027-01-15T19:30:00Z'),
  end: Date.parse('2027-01-15T20:00:00Z'),
  modified: Date.parse('2027-01-10T12:00:00Z'),
  status: 'CONFIRMED',
  summary: 'Harold Jenkins · Appointment',
  description: 'Phone: +13125550142',
  location: null,
  url: null,
  ...over,
});

/** The calendar's one event as a real parser reads it. */
function parsed(text: string) {
  const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return new ICAL.Event(vevent);
}

describe('icsText: TEXT escaped as RFC 5545 3.3.11 says', () => {
  it.each([
    ['Jenkins, Harold', 'Jenkins\\, Harold'],
    ['a;b', 'a\\;b'],
    ['C:\\path', 'C:\\\\path'],
    ['two\nlines', 'two\\nlines'],
    ['windows\r\nline', 'windows\\nline'],
    ['old mac\rline', 'old mac\\nline'],
    ['bell\u0007 and tab\t', 'bell and tab\t'],
    ['José 🏡', 'José 🏡'],
  ])('%j is written %j', (value, written) => {
    expect(icsText(value)).toBe(written);
  });
});

describe('foldLine: 75 octets a line, no character cut', () => {
  it('When a line fits, then it is left alone', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    expect(foldLine(`X:${'a'.repeat(73)}`)).toBe(`X:${'a'.repeat(73)}`);
  });

  it('When an ASCII line is longer, then it breaks at 75 octets and goes on after a space', () => {
    const line = `DESCRIPTION:${'x'.repeat(200)}`;
    const parts = foldLine(line).split('\r\n');
    expect(parts[0]).toHaveLength(75);
    expect(parts.slice(1).every((p) => p.startsWith(' ') && Buffer.byteLength(p) <= 75)).toBe(true);
    expect(parts.map((p, i) => (i ? p.slice(1) : p)).join('')).toBe(line);
  });

  it('When an emoji straddles the 75th octet, then it moves whole to the next line', () => {
    const line = `SUMMARY:${'a'.repeat(65)}🏡🏡🏡`; // 73 octets, then 4 + 4 + 4
    const [first, second] = foldLine(line).split('\r\n');
    expect(first).toBe(`SUMMARY:${'a'.repeat(65)}`);
    expect(second).toBe(' 🏡🏡🏡');
  });

  it('Property: every line is at most 75 octets, valid UTF-8, and unfolding gives the line back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (value) => {
        const line = `DESCRIPTION:${value}`;
        const parts = foldLine(line).split('\r\n');
        for (const part of parts) {
          expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
          expect(Buffer.from(part).toString()).toBe(part); // no lone surrogate: a character was not cut
        }
        expect(parts.map((p, i) => (i ? p.slice(1) : p)).join('')).toBe(line);
      }),
    );
  });
});

describe('icsCalendar: what a real parser reads back', () => {
  it('When the event is written, then every field comes back as given, in UTC, lines in CRLF', () => {
    const text = icsCalendar({ name: 'Leadgate · Dana', refreshMinutes: 15 }, [
      event({ location: 'https://meet.example/j/1?a=1,b=2', url: 'http://localhost:3000/console/leads/x' }),
    ]);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const e = parsed(text);
    expect(e.uid).toBe('a1@leadgate');
    expect(e.summary).toBe('Harold Jenkins · Appointment');
    expect(e.startDate.toJSDate().toISOString()).toBe('2027-01-15T19:30:00.000Z');
    expect(e.endDate.toJSDate().toISOString()).toBe('2027-01-15T20:00:00.000Z');
    expect(e.startDate.zone.tzid).toBe('UTC');
    expect(e.location).toBe('https://meet.example/j/1?a=1,b=2');
    expect(e.sequence).toBe(0);
    expect(e.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
  });

  it('Property: any name and notes (commas, emoji, new lines, 200 characters and more) come back whole', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 400 });
    fc.assert(
      fc.property(text, text, (summary, description) => {
        const e = parsed(icsCalendar({ name: 'x', refreshMinutes: 15 }, [event({ summary, description })]));
        // What a parser reads back: new lines as written, other control characters gone.
        const expected = (s: string) => s.replace(/\r\n?/g, '\n').replace(CONTROLS, '');
        expect(e.summary ?? '').toBe(expected(summary));
        expect(e.description ?? '').toBe(expected(description));
      }),
      { numRuns: 200 },
    );
  });

  it('icsInstant writes UTC without separators', () => {
    expect(icsInstant(Date.parse('2027-03-14T07:05:09.123Z'))).toBe('20270314T070509Z');
  });
});
