import fc from 'fast-check';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatAppointmentTime, formatWithZoneName, shortZoneName } from './zone-names.ts';
import { isKnownZone } from './zones.ts';

const Original = Intl.DateTimeFormat;

/** Counts the Intl.DateTimeFormat objects made from now until the test ends (afterEach restores). */
function countDateTimeFormats(): { made: number } {
  const count = { made: 0 };
  Intl.DateTimeFormat = function (...args: ConstructorParameters<typeof Original>) {
    count.made += 1;
    return new Original(...args);
  } as unknown as typeof Intl.DateTimeFormat;
  return count;
}

const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Puerto_Rico',
  'Asia/Kolkata',
  'Europe/London',
  'UTC',
];

describe('zone names', () => {
  afterEach(() => {
    Intl.DateTimeFormat = Original;
  });

  it('writes what luxon writes for ZZZZ in en-US, across zones and the whole year', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }),
        (zone, millis) => {
          const at = DateTime.fromMillis(millis, { zone }).setLocale('en-US');
          expect(formatWithZoneName(at, 'EEE, MMM d, h:mm a')).toBe(at.toFormat('EEE, MMM d, h:mm a ZZZZ'));
        },
      ),
    );
  });

  it('writes an appointment time as luxon with ZZZZ does, in every zone Intl knows, near clock changes too', () => {
    const zones = [...Intl.supportedValuesOf('timeZone'), 'US/Eastern', 'utc'];
    const luxon = (millis: number, zone: string) =>
      DateTime.fromMillis(millis, { zone }).setLocale('en-US').toFormat('EEE, MMM d, h:mm a ZZZZ');
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }),
        (zone, millis) => {
          expect(formatAppointmentTime(millis, zone)).toBe(luxon(millis, zone));
        },
      ),
      { numRuns: 3_000 },
    );
    // Every 10 minutes around the US changes of 2027, and a 30-minute zone's.
    for (const [zone, from] of [
      ['America/Chicago', Date.UTC(2027, 2, 14, 6)],
      ['America/Chicago', Date.UTC(2027, 10, 7, 5)],
      ['Australia/Lord_Howe', Date.UTC(2027, 3, 3, 13)],
    ] as const) {
      for (let m = from; m < from + 4 * 3_600_000; m += 600_000) {
        expect(formatAppointmentTime(m, zone)).toBe(luxon(m, zone));
      }
    }
  });

  it('gives no appointment time for a zone that is none, or an instant that is none', () => {
    expect(formatAppointmentTime(Date.UTC(2027, 0, 15), 'Not/AZone')).toBeNull();
    expect(formatAppointmentTime(Number.NaN, 'America/Chicago')).toBeNull();
  });

  it('asks Intl for a zone’s name at a day’s two starts only, then answers the day from memory', () => {
    const asked = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      const day = Date.UTC(2033, 5, 9); // an alias no other test here asks about (Intl lists canonical names)
      for (let h = 0; h < 24; h++) shortZoneName('America/Knox_IN', day + h * 3_600_000);
      expect(asked).toHaveBeenCalledTimes(2);
    } finally {
      asked.mockRestore();
    }
  });

  it('knows standard and daylight time apart', () => {
    expect(shortZoneName('America/Chicago', Date.UTC(2027, 0, 15, 19, 30))).toBe('CST');
    expect(shortZoneName('America/Chicago', Date.UTC(2027, 6, 15, 19, 30))).toBe('CDT');
  });

  it('makes one Intl.DateTimeFormat per zone, however many times it is asked', () => {
    // At most one: another test file in this process may have asked for the zone already.
    const count = countDateTimeFormats();
    shortZoneName('America/Fort_Wayne', Date.UTC(2027, 0, 1));
    const first = count.made;
    expect(first).toBeLessThanOrEqual(1);
    for (let i = 1; i < 50; i++) shortZoneName('America/Fort_Wayne', Date.UTC(2027, 0, 1) + i * 86_400_000);
    expect(count.made).toBe(first);
  });

  it('leaves an invalid time as luxon writes it', () => {
    const at = DateTime.fromISO('not a time', { zone: 'America/Chicago' });
    expect(formatWithZoneName(at, 'yyyy-MM-dd')).toBe('Invalid DateTime');
  });
});

describe('isKnownZone', () => {
  afterEach(() => {
    Intl.DateTimeFormat = Original;
  });

  it.each([
    ['America/Chicago', true],
    ['america/chicago', true],
    ['UTC', true],
    ['Mars/Olympus_Mons', false],
    ['', false],
  ])('%j is known: %s', (name, known) => {
    expect(isKnownZone(name)).toBe(known);
  });

  it('asks Intl once per name, known or made up', () => {
    // A made-up name no other test asks for; the known one may have been asked by another file
    // in this process already.
    const madeUp = `Atlantis/Capital_${process.pid}_${Date.now()}`;
    const count = countDateTimeFormats();
    expect(isKnownZone('America/Indiana/Knox')).toBe(true);
    expect(isKnownZone(madeUp)).toBe(false);
    const first = count.made;
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(2);
    for (let i = 0; i < 20; i++) {
      isKnownZone('America/Indiana/Knox');
      isKnownZone(madeUp);
    }
    expect(count.made).toBe(first);
  });
});
