import fc from 'fast-check';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { formatWithZoneName, shortZoneName } from './zone-names.ts';
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

  it('knows standard and daylight time apart', () => {
    expect(shortZoneName('America/Chicago', Date.UTC(2027, 0, 15, 19, 30))).toBe('CST');
    expect(shortZoneName('America/Chicago', Date.UTC(2027, 6, 15, 19, 30))).toBe('CDT');
  });

  it('makes one Intl.DateTimeFormat per zone, however many times it is asked', () => {
    const count = countDateTimeFormats();
    for (let i = 0; i < 50; i++) shortZoneName('America/Boise', Date.UTC(2027, 0, 1) + i * 86_400_000);
    expect(count.made).toBe(1);
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
    const count = countDateTimeFormats();
    for (let i = 0; i < 20; i++) {
      isKnownZone('America/Indiana/Knox');
      isKnownZone('Atlantis/Capital');
    }
    expect(count.made).toBe(2);
  });
});
