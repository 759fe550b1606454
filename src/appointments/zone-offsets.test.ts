import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { describe, expect, it, vi } from 'vitest';
import { zoneOffset } from './zone-offsets.ts';

// zoneOffset remembers offsets by UTC day; luxon's IANAZone.offset asks Intl each time. They must
// never differ: in every zone this Node knows, at any instant, and above all near the changes.
const ZONES = [...Intl.supportedValuesOf('timeZone'), 'UTC', 'US/Eastern', 'EST', 'Etc/GMT+5'];
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const instant = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2069, 11, 31) });

/** The instants, about a day apart, where a zone's offset changes in a year (found by luxon). */
function changesIn(zone: IANAZone, year: number): number[] {
  const found: number[] = [];
  for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 6 * HOUR_MS) {
    if (zone.offset(t) !== zone.offset(t + 6 * HOUR_MS)) found.push(t);
  }
  return found;
}

describe('zoneOffset', () => {
  it('is luxon’s offset at any instant, in any zone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), instant, (name, at) => {
        expect(zoneOffset(name, at)).toBe(IANAZone.create(name).offset(at));
      }),
      { numRuns: 5_000 },
    );
  });

  it('is luxon’s offset minute by minute around every change of 2027 in zones with DST, 30-minute ones included', () => {
    for (const name of [
      'America/Chicago',
      'America/New_York',
      'Australia/Lord_Howe',
      'Europe/London',
      'Pacific/Chatham',
      'America/Santiago',
    ]) {
      const zone = IANAZone.create(name);
      const changes = changesIn(zone, 2027);
      expect(changes.length, name).toBeGreaterThanOrEqual(2);
      for (const near of changes) {
        for (let at = near - HOUR_MS; at <= near + 7 * HOUR_MS; at += MINUTE_MS) {
          expect(zoneOffset(name, at), `${name} ${new Date(at).toISOString()}`).toBe(zone.offset(at));
        }
      }
    }
  });

  it('is NaN for a name that is no zone, and for an instant that is no number, as luxon’s', () => {
    expect(zoneOffset('Not/AZone', Date.UTC(2027, 0, 15))).toBeNaN();
    expect(zoneOffset('America/Chicago', Number.NaN)).toBeNaN();
  });

  it('asks luxon once per day start, then answers the day’s other instants from memory, except on a day with a change', () => {
    // A name no other test here asks about (not among Intl's canonical names), so nothing is remembered yet.
    const asked = vi.spyOn(IANAZone.prototype, 'offset');
    try {
      const day = Date.UTC(2031, 4, 20);
      for (let h = 0; h < 24; h++) zoneOffset('US/Mountain', day + h * 3_600_000);
      expect(asked).toHaveBeenCalledTimes(2);
      asked.mockClear();
      const change = Date.UTC(2031, 2, 9); // US/Mountain springs forward at 09:00 UTC that day
      for (let h = 0; h < 24; h++) zoneOffset('US/Mountain', change + h * 3_600_000);
      expect(asked).toHaveBeenCalledTimes(2 + 24);
    } finally {
      asked.mockRestore();
    }
  });
});
