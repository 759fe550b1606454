import { describe, expect, it } from 'vitest';
import type { LeadFields } from '../ingest/types.ts';
import { resolveSchedule } from './schedule.ts';

const AGENT = 'America/New_York';

function zoneOf(lead: LeadFields, agent = AGENT): { zone: string | null; source: string | undefined } {
  const r = resolveSchedule(lead, agent);
  return { zone: r.timezone, source: r.timezone_source };
}

// [state, what, lead, zone, source]
const BY_PLACE: [string, string, LeadFields, string, string][] = [
  ['TX', 'El Paso ZIP', { state: 'TX', zipcode: '79901' }, 'America/Denver', 'zipcode'],
  ['TX', 'Dallas ZIP', { state: 'TX', zipcode: '75201' }, 'America/Chicago', 'zipcode'],
  ['FL', 'Pensacola ZIP', { state: 'FL', zipcode: '32501' }, 'America/Chicago', 'zipcode'],
  ['FL', 'Miami ZIP', { state: 'FL', zipcode: '33101' }, 'America/New_York', 'zipcode'],
  ['IN', 'Indianapolis ZIP', { zipcode: '46204' }, 'America/Indiana/Indianapolis', 'zipcode'],
  ['IN', 'Hammond ZIP (Chicago area)', { zipcode: '46320' }, 'America/Chicago', 'zipcode'],
  ['IN', 'Evansville ZIP', { zipcode: '47708' }, 'America/Chicago', 'zipcode'],
  ['TN', 'Nashville ZIP', { zipcode: '37201' }, 'America/Chicago', 'zipcode'],
  ['TN', 'Knoxville ZIP', { zipcode: '37902' }, 'America/New_York', 'zipcode'],
  ['TN', 'Chattanooga ZIP (corrected)', { zipcode: '37419' }, 'America/New_York', 'zipcode'],
  ['KY', 'Louisville ZIP', { zipcode: '40202' }, 'America/Kentucky/Louisville', 'zipcode'],
  ['KY', 'Bowling Green ZIP', { zipcode: '42101' }, 'America/Chicago', 'zipcode'],
  ['MI', 'Detroit ZIP', { zipcode: '48201' }, 'America/Detroit', 'zipcode'],
  ['MI', 'Iron Mountain ZIP', { zipcode: '49801' }, 'America/Menominee', 'zipcode'],
  ['ND', 'Fargo ZIP', { zipcode: '58102' }, 'America/Chicago', 'zipcode'],
  ['ND', 'Dickinson ZIP', { zipcode: '58601' }, 'America/Denver', 'zipcode'],
  ['SD', 'Sioux Falls ZIP', { zipcode: '57104' }, 'America/Chicago', 'zipcode'],
  ['SD', 'Rapid City ZIP', { zipcode: '57701' }, 'America/Denver', 'zipcode'],
  ['NE', 'Omaha ZIP', { zipcode: '68102' }, 'America/Chicago', 'zipcode'],
  ['NE', 'Scottsbluff ZIP', { zipcode: '69361' }, 'America/Denver', 'zipcode'],
  ['KS', 'Kansas City ZIP', { zipcode: '66101' }, 'America/Chicago', 'zipcode'],
  ['KS', 'Goodland ZIP', { zipcode: '67735' }, 'America/Denver', 'zipcode'],
  ['OR', 'Portland ZIP', { zipcode: '97201' }, 'America/Los_Angeles', 'zipcode'],
  ['OR', 'Ontario ZIP', { zipcode: '97914' }, 'America/Boise', 'zipcode'],
  ['ID', 'Boise ZIP', { zipcode: '83702' }, 'America/Boise', 'zipcode'],
  ['ID', "Coeur d'Alene ZIP", { zipcode: '83814' }, 'America/Los_Angeles', 'zipcode'],
  [
    'ID',
    "208 Coeur d'Alene exchange",
    { state: 'ID', phone: '2086641234' },
    'America/Los_Angeles',
    'area_code',
  ],
  [
    'ID',
    '208 Boise exchange, named as Idaho does',
    { state: 'ID', phone: '2083431234' },
    'America/Boise',
    'area_code',
  ],
  ['AZ', 'Phoenix ZIP', { zipcode: '85001' }, 'America/Phoenix', 'zipcode'],
  ['AZ', 'Window Rock ZIP (Navajo Nation, keeps DST)', { zipcode: '86515' }, 'America/Denver', 'zipcode'],
  ['AZ', 'state alone', { state: 'AZ' }, 'America/Phoenix', 'state_main'],
  ['HI', 'Honolulu ZIP', { zipcode: '96813' }, 'Pacific/Honolulu', 'zipcode'],
  ['HI', 'state alone', { state: 'HI' }, 'Pacific/Honolulu', 'state'],
  ['AK', 'Anchorage ZIP', { zipcode: '99501' }, 'America/Anchorage', 'zipcode'],
  [
    'AK',
    '907 number, named as Alaska does',
    { state: 'AK', phone: '9072221234' },
    'America/Anchorage',
    'area_code',
  ],
  ['NV', 'West Wendover ZIP (corrected)', { zipcode: '89883' }, 'America/Denver', 'zipcode'],
  ['CA', 'state alone', { state: 'CA' }, 'America/Los_Angeles', 'state'],
  ['DC', 'state alone', { state: 'DC' }, 'America/New_York', 'state'],
  ['TX', 'full state name', { state: 'Texas' }, 'America/Chicago', 'state_main'],
];

describe('time zone by place', () => {
  it.each(BY_PLACE)('when a %s lead has %s, then the zone is right', (_state, _what, lead, zone, source) => {
    expect(zoneOf(lead)).toEqual({ zone, source });
  });
});

// Area code only: no ZIP, no state. [number, place, zone]
const SPLIT_AREA_CODES: [string, string, string][] = [
  ['8504321234', 'Pensacola exchange of 850', 'America/Chicago'],
  ['8502221234', 'Tallahassee exchange of 850', 'America/New_York'],
  ['2086641234', "Coeur d'Alene exchange of 208", 'America/Los_Angeles'],
  ['2083431234', 'Boise exchange of 208', 'America/Denver'],
  ['2708421234', 'Bowling Green exchange of 270', 'America/Chicago'],
  ['4238211234', 'Chattanooga exchange of 423', 'America/New_York'],
  ['5418811234', 'Ontario exchange of 541', 'America/Denver'],
  ['5413821234', 'Bend exchange of 541', 'America/Los_Angeles'],
  ['6053421234', 'Rapid City exchange of 605', 'America/Denver'],
  ['6053321234', 'Sioux Falls exchange of 605', 'America/Chicago'],
  ['7012251234', 'Dickinson exchange of 701', 'America/Denver'],
  ['7012221234', 'Bismarck exchange of 701', 'America/Chicago'],
  ['9067741234', 'Iron Mountain exchange of 906', 'America/Chicago'],
  ['8124221234', 'Evansville exchange of 812', 'America/Chicago'],
  ['2196621234', 'Crown Point exchange of 219', 'America/Chicago'],
  ['9154441234', 'El Paso (915)', 'America/Denver'],
  ['6022221234', 'Phoenix (602)', 'America/Phoenix'],
  ['8082221234', 'Honolulu (808)', 'Pacific/Honolulu'],
  ['12125551234', 'New York with a leading 1', 'America/New_York'],
];

describe('time zone by phone area code alone', () => {
  it.each(SPLIT_AREA_CODES)('when the phone is %s (%s), then the zone is %s', (phone, _place, zone) => {
    expect(zoneOf({ phone })).toEqual({ zone, source: 'area_code' });
  });
});

describe('inference order', () => {
  const ORDER: [string, LeadFields, string, string][] = [
    [
      'an explicit zone beats the ZIP',
      { appointment_timezone: 'America/New_York', zipcode: '79901' },
      'America/New_York',
      'appointment_timezone',
    ],
    ['the ZIP beats the state', { zipcode: '79901', state: 'TX' }, 'America/Denver', 'zipcode'],
    ['the ZIP beats a single-zone state', { zipcode: '79901', state: 'CA' }, 'America/Denver', 'zipcode'],
    [
      'a single-zone state beats the area code',
      { state: 'CA', phone: '2125551234' },
      'America/Los_Angeles',
      'state',
    ],
    [
      'the area code beats the main zone of its state',
      { state: 'TX', phone: '9154441234' },
      'America/Denver',
      'area_code',
    ],
    [
      'an area code from another state gives way to the state main zone',
      { state: 'TX', phone: '2125551234' },
      'America/Chicago',
      'state_main',
    ],
    ['the state main zone beats the agent', { state: 'FL' }, 'America/New_York', 'state_main'],
    [
      'an unknown ZIP of a one-zone prefix takes the prefix zone',
      { zipcode: '10015' },
      'America/New_York',
      'zipcode_prefix',
    ],
    ['a ZIP+4 is read by its first five digits', { zipcode: '79901-1234' }, 'America/Denver', 'zipcode'],
    ['a malformed ZIP is skipped', { zipcode: 'ABCDE', state: 'CO' }, 'America/Denver', 'state'],
    ['an unknown state is skipped', { state: 'ZZ', phone: '3055551234' }, 'America/New_York', 'area_code'],
    ['with nothing to go on the agent zone is used', {}, 'America/Chicago', 'agent_default'],
  ];
  it.each(ORDER)('when %s', (_rule, lead, zone, source) => {
    expect(zoneOf(lead, 'America/Chicago')).toEqual({ zone, source });
  });

  it('when the agent zone is not valid either, then UTC is used with a warning', () => {
    const r = resolveSchedule({}, 'Not/AZone');
    expect(r.timezone).toBe('UTC');
    expect(r.warnings.map((w) => w.code)).toEqual(['AGENT_TIMEZONE_INVALID']);
  });
});

describe('appointment_timezone as sent', () => {
  it('when it is not a time zone, then it is rejected with a warning and inference goes on', () => {
    const r = resolveSchedule({ appointment_timezone: 'Mars/Olympus', zipcode: '32501' }, AGENT);
    expect(r.timezone).toBe('America/Chicago');
    expect(r.rejected).toEqual({ appointment_timezone: 'Mars/Olympus' });
    expect(r.warnings).toEqual([
      expect.objectContaining({ field: 'appointment_timezone', code: 'INVALID_TIMEZONE' }),
    ]);
  });

  it('when it is sent in another case, then the usual spelling is kept', () => {
    expect(zoneOf({ appointment_timezone: 'america/indiana/indianapolis' }).zone).toBe(
      'America/Indiana/Indianapolis',
    );
  });

  const ALIASES: [string, LeadFields, string][] = [
    ['EST', {}, 'America/New_York'],
    ['Eastern Standard Time', {}, 'America/New_York'],
    ['c.s.t.', {}, 'America/Chicago'],
    ['Pacific Time (US & Canada)', {}, 'America/Los_Angeles'],
    ['MST', {}, 'America/Denver'],
    ['MST', { zipcode: '85001' }, 'America/Phoenix'],
    ['EST', { zipcode: '46204' }, 'America/Indiana/Indianapolis'],
    ['EST', { zipcode: '75201' }, 'America/New_York'],
  ];
  it.each(ALIASES)('when it is the abbreviation "%s" (lead %o), then it reads as %s', (tz, lead, zone) => {
    const r = resolveSchedule({ ...lead, appointment_timezone: tz }, AGENT);
    expect(r.timezone).toBe(zone);
    expect(r.warnings.map((w) => w.code)).toEqual(['TIMEZONE_ALIAS']);
    expect(r.rejected).toEqual({});
  });
});
