import zipTable from './data/zip-timezones.json' with { type: 'json' };
import correctionTable from './data/zip-timezone-overrides.json' with { type: 'json' };

export interface ZipZone {
  zone: string;
  /** False when the ZIP is not in the dataset and the zone comes from its 3-digit prefix. */
  exact: boolean;
}

const prefixes: Record<string, Record<string, string>> = zipTable.prefixes;
const corrections: Record<string, { zone: string }> = correctionTable.overrides;

function coversSuffix(ranges: string, suffix: number): boolean {
  return ranges.split(' ').some((range) => {
    const [from, to] = range.split('-');
    return suffix >= Number(from) && suffix <= Number(to ?? from);
  });
}

/**
 * The zone of a US ZIP code (first five digits of ZIP or ZIP+4). A ZIP missing from the dataset
 * (new or PO-box-only) takes its prefix's zone when the whole prefix keeps one zone: a 3-digit
 * prefix is one mail-sorting area, so that is a safe guess; a split prefix gives no answer.
 */
export function zipZone(zipcode: string): ZipZone | null {
  const zip = /^(\d{5})(?:-?\d{4})?$/.exec(zipcode.trim())?.[1];
  if (zip === undefined) return null;
  if (Object.hasOwn(corrections, zip)) {
    const correction = corrections[zip];
    if (correction !== undefined) return { zone: correction.zone, exact: true };
  }
  const key = `${zip.slice(0, 3)}xx`;
  const zones = Object.hasOwn(prefixes, key) ? Object.entries(prefixes[key] ?? {}) : [];
  const suffix = Number(zip.slice(3));
  const hit = zones.find(([, ranges]) => coversSuffix(ranges, suffix));
  if (hit !== undefined) return { zone: hit[0], exact: true };
  const only = zones.length === 1 ? zones[0] : undefined;
  return only === undefined ? null : { zone: only[0], exact: false };
}
