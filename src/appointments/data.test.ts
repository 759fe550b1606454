import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import areaCodeTable from './data/area-code-timezones.json' with { type: 'json' };
import aliasTable from './data/timezone-aliases.json' with { type: 'json' };
import stateTable from './data/state-timezones.json' with { type: 'json' };
import correctionTable from './data/zip-timezone-overrides.json' with { type: 'json' };
import zipTable from './data/zip-timezones.json' with { type: 'json' };
import { areaCodeZone } from './area-code-zones.ts';
import { isKnownZone } from './zones.ts';

const states: Record<string, { main: string; zones: string[] }> = stateTable.states;
const zipPrefixes: Record<string, Record<string, string>> = zipTable.prefixes;
const corrections: Record<string, { zone: string }> = correctionTable.overrides;
const GEOGRAPHIC = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);
const EXCHANGES = Array.from({ length: 115 }, (_, i) => String(200 + i * 7));

/** US area codes that libphonenumber-js (a separate dataset) holds to be geographic. */
function usAreaCodes(): string[] {
  const codes: string[] = [];
  for (let npa = 200; npa <= 999; npa++) {
    const geographic = EXCHANGES.some((exchange) => {
      const number = parsePhoneNumberFromString(`+1${npa}${exchange}4567`);
      const type = number?.getType();
      return (
        number?.isValid() === true && number.country === 'US' && type !== undefined && GEOGRAPHIC.has(type)
      );
    });
    if (geographic) codes.push(String(npa));
  }
  return codes;
}

function datasetZipZone(zip: string): string | undefined {
  const suffix = Number(zip.slice(3));
  const zones = Object.entries(zipPrefixes[`${zip.slice(0, 3)}xx`] ?? {});
  return zones.find(([, ranges]) =>
    ranges.split(' ').some((r) => {
      const [from, to] = r.split('-');
      return suffix >= Number(from) && suffix <= Number(to ?? from);
    }),
  )?.[0];
}

describe('time-zone data files', () => {
  it('name only zones the runtime knows', () => {
    const zones = new Set([
      ...Object.values(states).flatMap((s) => [s.main, ...s.zones]),
      ...Object.values(areaCodeTable.prefixes),
      ...Object.values(zipPrefixes).flatMap((byZone) => Object.keys(byZone)),
      ...Object.values(corrections).map((c) => c.zone),
      ...Object.values(aliasTable.aliases),
    ]);
    expect([...zones].filter((zone) => !isKnownZone(zone))).toEqual([]);
  });

  it('have every state and DC, each with its main zone among its zones', () => {
    const codes = Object.keys(states).filter((code) => !['PR', 'VI', 'GU', 'MP', 'AS'].includes(code));
    expect(codes).toHaveLength(51);
    for (const row of Object.values(states)) expect(row.zones[0]).toBe(row.main);
    const multiZone = Object.entries(states).filter(([, s]) => s.zones.length > 1);
    expect(multiZone.map(([code]) => code).sort()).toEqual(
      ['AK', 'AZ', 'FL', 'ID', 'IN', 'KS', 'KY', 'MI', 'ND', 'NE', 'NV', 'OR', 'SD', 'TN', 'TX'].sort(),
    );
  });

  it('resolve every geographic US area code at the area-code level', () => {
    const codes = usAreaCodes();
    expect(codes.length).toBeGreaterThan(330);
    const missing = codes.filter((npa) => !Object.hasOwn(areaCodeTable.prefixes, `+1${npa}`));
    expect(missing).toEqual([]);
    expect(codes.filter((npa) => areaCodeZone(`${npa}2345678`) === null)).toEqual([]);
  });

  it('hold the whole ZIP dataset', () => {
    let count = 0;
    for (const byZone of Object.values(zipPrefixes)) {
      for (const ranges of Object.values(byZone)) {
        for (const range of ranges.split(' ')) {
          const [from, to] = range.split('-');
          count += Number(to ?? from) - Number(from) + 1;
        }
      }
    }
    expect(count).toBe(41058);
  });

  it('correct only ZIPs the dataset has, and each to another zone (a fixed upstream makes it stale)', () => {
    for (const [zip, { zone }] of Object.entries(corrections)) {
      const upstream = datasetZipZone(zip);
      expect(upstream, zip).toBeDefined();
      expect(upstream, zip).not.toBe(zone);
    }
  });
});
