import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeadFields } from '../ingest/types.ts';
import type { JsonObject, JsonValue } from '../json.ts';
import { LEAD_STATUSES } from './lead-status.ts';
import { mergeLead, type StoredLead } from './merge-lead.ts';

const TODAY = '2027-01-15';

function stored(
  fields: LeadFields,
  custom_fields: JsonObject = {},
  status: StoredLead['status'] = 'New',
): StoredLead {
  return { lead_id: 'L', status, fields, custom_fields };
}
function incoming(fields: LeadFields, custom_fields: JsonObject = {}, hasAppointment = false) {
  return { fields, custom_fields, hasAppointment };
}

describe('mergeLead: which value wins', () => {
  it.each<[string, LeadFields, LeadFields, LeadFields, string[]]>([
    ['a new value overwrites', { city: 'Austin' }, { city: 'Dallas' }, { city: 'Dallas' }, ['city']],
    [
      'a field not stored yet is added',
      { city: 'Austin' },
      { county: 'Travis' },
      { city: 'Austin', county: 'Travis' },
      ['county'],
    ],
    ['the same value is no change', { city: 'Austin' }, { city: 'Austin' }, { city: 'Austin' }, []],
    ['an empty string never erases', { city: 'Austin' }, { city: '' }, { city: 'Austin' }, []],
    ['a blank string never erases', { city: 'Austin' }, { city: '   ' }, { city: 'Austin' }, []],
    ['an empty list never erases', { tags: ['fe'] }, { tags: [] }, { tags: ['fe'] }, []],
    ['false is a value, not emptiness', { smoker: true }, { smoker: false }, { smoker: false }, ['smoker']],
    ['zero is a value', { age: 40 }, { age: 0 }, { age: 0 }, ['age']],
    [
      'tags are united, first spelling kept',
      { tags: ['FE', 'hot'] },
      { tags: ['fe', 'vip'] },
      { tags: ['FE', 'hot', 'vip'] },
      ['tags'],
    ],
    ['tags already there are no change', { tags: ['FE'] }, { tags: ['fe'] }, { tags: ['FE'] }, []],
  ])(
    'When %s, then the merged fields and the changes are as the table says',
    (_label, before, sent, after, changed) => {
      const merged = mergeLead(stored(before), incoming(sent), TODAY);
      expect(merged.fields).toEqual(after);
      expect(Object.keys(merged.changes)).toEqual(changed);
      for (const field of changed)
        expect(merged.changes[field]).toEqual({ from: before[field] ?? null, to: after[field] });
    },
  );

  it.each<[string, string | undefined, string, string]>([
    ['no notes yet', undefined, 'Call after 5', 'Call after 5'],
    ['blank notes', '  ', 'Call after 5', 'Call after 5'],
    ['earlier notes', 'Prefers email', 'Call after 5', `Prefers email\n\n--- ${TODAY} ---\nCall after 5`],
    ['the same note again', 'Call after 5', 'Call after 5', 'Call after 5'],
    [
      'a note already appended last',
      `Old\n\n--- 2027-01-01 ---\nCall after 5`,
      'Call after 5',
      `Old\n\n--- 2027-01-01 ---\nCall after 5`,
    ],
  ])(
    'When notes meet %s, then they are appended under a dated separator, never twice',
    (_label, before, sent, after) => {
      const merged = mergeLead(
        stored(before === undefined ? {} : { notes: before }),
        incoming({ notes: sent }),
        TODAY,
      );
      expect(merged.fields.notes).toBe(after);
    },
  );

  it('When custom_fields are sent, then they merge key by key and empty values never erase', () => {
    const merged = mergeLead(
      stored({}, { join_url: 'https://old', score: 7, keep: 'me' }),
      incoming({}, { join_url: 'https://new', score: 7, keep: '', extra: { a: 1 } }),
      TODAY,
    );
    expect(merged.custom_fields).toEqual({ join_url: 'https://new', score: 7, keep: 'me', extra: { a: 1 } });
    expect(merged.changes).toEqual({
      'custom_fields.join_url': { from: 'https://old', to: 'https://new' },
      'custom_fields.extra': { from: null, to: { a: 1 } },
    });
  });

  it.each<[string, JsonValue]>([
    ['null', null],
    ['empty', ''],
    ['blank', ' \t '],
  ])(
    'When a repeat delivery carries %s contact fields and links, then none of the stored ones is replaced',
    (_label, empty) => {
      const contact = {
        name: 'Maria Gonzalez',
        first_name: 'Maria',
        last_name: 'Gonzalez',
        phone: '3125550148',
        email: 'maria@example.com',
      };
      const links = {
        join_url: 'https://zoom.example/j/1',
        cancel_url: 'https://c/1',
        reschedule_url: 'https://r/1',
      };
      const blank = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, empty]));
      const merged = mergeLead(
        stored(contact, links),
        incoming(blank(Object.keys(contact)) as unknown as LeadFields, blank(Object.keys(links))),
        TODAY,
      );
      expect(merged.fields).toEqual(contact);
      expect(merged.custom_fields).toEqual(links);
      expect(merged.changes).toEqual({});
    },
  );

  it('When a custom field is named __proto__, then it is an ordinary key', () => {
    const custom = JSON.parse('{"__proto__": {"polluted": true}}') as JsonObject;
    const merged = mergeLead(stored({}), incoming({}, custom), TODAY);
    expect(Object.hasOwn(merged.custom_fields, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[StoredLead['status'], boolean, StoredLead['status']]>([
    ['New', false, 'New'],
    ['Scheduled', false, 'Scheduled'],
    ['Canceled', false, 'New'],
    ['New', true, 'Scheduled'],
    ['Scheduled', true, 'Scheduled'],
    ['Canceled', true, 'Scheduled'],
  ])('When a %s lead is resent (appointment: %s), then it becomes %s', (from, hasAppointment, to) => {
    expect(mergeLead(stored({}, {}, from), incoming({}, {}, hasAppointment), TODAY).status).toBe(to);
  });
});

describe('mergeLead: properties', () => {
  const names = ['name', 'phone', 'email', 'city', 'tags', 'notes', 'age', 'smoker'];
  const value: fc.Arbitrary<LeadFields[string]> = fc.oneof(
    fc.constantFrom('', ' ', 'Austin', 'Dallas', 'call me'),
    fc.string({ maxLength: 8 }),
    fc.integer({ min: 0, max: 120 }),
    fc.boolean(),
    fc.array(fc.constantFrom('fe', 'FE', 'hot', 'vip', ''), { maxLength: 3 }),
  );
  const fields = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 6 });
  const json: fc.Arbitrary<JsonValue> = fc.oneof(
    fc.constantFrom('', 'x', 'y', null),
    fc.integer(),
    fc.boolean(),
  );
  const custom = fc.dictionary(fc.constantFrom('join_url', 'score', 'vendor', '__proto__'), json, {
    maxKeys: 4,
  });
  const status = fc.constantFrom(...LEAD_STATUSES);
  const isEmpty = (v: unknown) =>
    v === undefined ||
    v === null ||
    (typeof v === 'string' && v.trim() === '') ||
    (Array.isArray(v) && v.length === 0);

  it('When any delivery is merged, then no stored value is erased by an empty one', () => {
    fc.assert(
      fc.property(fields, custom, status, fields, custom, fc.boolean(), (sf, sc, st, inf, inc, appt) => {
        const merged = mergeLead(stored(sf, sc, st), incoming(inf, inc, appt), TODAY);
        for (const [key, before] of Object.entries(sf)) {
          if (!isEmpty(before)) expect(isEmpty(merged.fields[key])).toBe(false);
        }
        for (const key of Object.keys(sc)) {
          if (!isEmpty(sc[key])) expect(isEmpty(merged.custom_fields[key])).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('When a merge is made, then its changes list exactly the values that differ, old and new', () => {
    fc.assert(
      fc.property(fields, custom, fields, custom, (sf, sc, inf, inc) => {
        const merged = mergeLead(stored(sf, sc), incoming(inf, inc), TODAY);
        const differing = [
          ...Object.keys(merged.fields).filter((k) => !isDeepStrictEqual(merged.fields[k], sf[k])),
          ...Object.keys(merged.custom_fields)
            .filter(
              (k) => !isDeepStrictEqual(merged.custom_fields[k], Object.hasOwn(sc, k) ? sc[k] : undefined),
            )
            .map((k) => `custom_fields.${k}`),
        ];
        expect(Object.keys(merged.changes).sort()).toEqual(differing.sort());
      }),
      { numRuns: 1000 },
    );
  });

  it('When the same delivery is merged twice, then the second merge changes nothing', () => {
    fc.assert(
      fc.property(fields, custom, fields, custom, (sf, sc, inf, inc) => {
        const once = mergeLead(stored(sf, sc), incoming(inf, inc), TODAY);
        const twice = mergeLead(
          stored(once.fields, once.custom_fields, once.status),
          incoming(inf, inc),
          TODAY,
        );
        expect(twice.changes).toEqual({});
        expect(twice.fields).toEqual(once.fields);
      }),
      { numRuns: 1000 },
    );
  });
});
