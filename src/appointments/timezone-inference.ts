import type { LeadFields } from '../ingest/types.ts';
import aliasTable from './data/timezone-aliases.json' with { type: 'json' };
import { areaCodeZone } from './area-code-zones.ts';
import type { FieldIssues } from './lead-input.ts';
import { leadText } from './lead-input.ts';
import { stateZones } from './state-zones.ts';
import { zipZone } from './zip-zones.ts';
import { canonicalZoneName, isKnownZone, sameClock, sameStandardOffset } from './zones.ts';

export type TimezoneSource =
  | 'appointment_timezone'
  | 'zipcode'
  | 'zipcode_prefix'
  | 'state'
  | 'area_code'
  | 'state_main'
  | 'agent_default';

export interface InferredTimezone {
  zone: string;
  source: TimezoneSource;
  /** The sender's own zone, set only from a usable appointment_timezone. */
  explicit: string | null;
}

interface Located {
  zone: string;
  source: TimezoneSource;
}

const aliases: Record<string, string> = aliasTable.aliases;

/** The fields `inferTimezone` reads (through `input`), and nothing else of the lead. */
export const TIMEZONE_INPUTS = ['appointment_timezone', 'zipcode', 'state', 'phone'] as const;

const input = (lead: LeadFields, field: (typeof TIMEZONE_INPUTS)[number]) => leadText(lead, field);

/**
 * The contact's time zone: a valid appointment_timezone → ZIP code → state (single-zone states) →
 * phone area code → the state's main zone → the agent's zone. The area code only counts when it
 * agrees with the state: a mobile number keeps its area code when its owner moves, the address
 * does not lie about where the contact lives.
 */
export function inferTimezone(
  lead: LeadFields,
  agentTimezone: string,
  issues: FieldIssues,
): InferredTimezone {
  const located = locate(lead);
  const explicit = explicitZone(lead, located?.zone ?? null, issues);
  if (explicit !== null) return { zone: explicit, source: 'appointment_timezone', explicit };
  if (located !== null) return { ...located, explicit: null };
  if (isKnownZone(agentTimezone)) {
    return { zone: canonicalZoneName(agentTimezone), source: 'agent_default', explicit: null };
  }
  issues.warn(
    'appointment_timezone',
    'AGENT_TIMEZONE_INVALID',
    `The agent's time zone "${agentTimezone}" is not a valid IANA zone; UTC was used.`,
  );
  return { zone: 'UTC', source: 'agent_default', explicit: null };
}

function locate(lead: LeadFields): Located | null {
  const zip = input(lead, 'zipcode');
  const byZip = zip === undefined ? null : zipZone(zip);
  if (byZip !== null) return { zone: byZip.zone, source: byZip.exact ? 'zipcode' : 'zipcode_prefix' };

  const stateName = input(lead, 'state');
  const state = stateName === undefined ? null : stateZones(stateName);
  if (state !== null && state.zones.length === 1) return { zone: state.main, source: 'state' };

  const phone = input(lead, 'phone');
  const byPhone = phone === undefined ? null : areaCodeZone(phone);
  if (byPhone !== null) {
    if (state === null) return { zone: byPhone, source: 'area_code' };
    // Name the zone as the state does (317 → America/Indiana/Indianapolis, not America/New_York).
    const stateZone = state.zones.find((zone) => sameClock(zone, byPhone));
    if (stateZone !== undefined) return { zone: stateZone, source: 'area_code' };
  }
  return state === null ? null : { zone: state.main, source: 'state_main' };
}

/** "Eastern Standard Time", "e.s.t.", "Central Time (US & Canada)" → EASTERN, EST, CENTRAL. */
function aliasKey(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/\./g, '')
    .replace(/\s*\(.*\)\s*$/, '')
    .replace(/\s+/g, ' ')
    .replace(/ (STANDARD |DAYLIGHT )?TIME( ZONE)?$/, '')
    .trim();
}

function explicitZone(lead: LeadFields, located: string | null, issues: FieldIssues): string | null {
  const raw = input(lead, 'appointment_timezone');
  if (raw === undefined) return null;
  // Checked before the tz database, which knows "EST" and "MST" as fixed offsets without DST:
  // a sender writing "EST" in July means New York time.
  const key = aliasKey(raw);
  const alias = Object.hasOwn(aliases, key) ? aliases[key] : undefined;
  if (alias !== undefined) {
    const zone = located !== null && sameStandardOffset(located, alias) ? located : alias;
    issues.warn(
      'appointment_timezone',
      'TIMEZONE_ALIAS',
      `"${raw}" is not an IANA time zone name; read as ${zone}.`,
    );
    return zone;
  }
  if (isKnownZone(raw)) return canonicalZoneName(raw);
  issues.reject(
    'appointment_timezone',
    raw,
    'INVALID_TIMEZONE',
    `"${raw}" is not an IANA time zone (e.g. America/Chicago); the zone was inferred from the lead instead.`,
  );
  return null;
}
