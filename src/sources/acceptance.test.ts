import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptLead } from './acceptance.ts';
import type { AcceptRules } from './terms.ts';

const RUNS = { numRuns: 400 };

describe('acceptLead: a source’s acceptance rules on one lead', () => {
  it.each<[string, AcceptRules, Record<string, unknown>, string | null]>([
    ['no rules take any lead', {}, { state: 'OH', age: 17 }, null],
    ['a state on the list passes', { states: ['TX', 'OK'] }, { state: 'TX' }, null],
    [
      'a state off the list is refused',
      { states: ['TX'] },
      { state: 'OH' },
      'state OH is not accepted by this source',
    ],
    ['states compare without case', { states: ['tx'] }, { state: 'TX' }, null],
    ['a lead without a state passes a state rule', { states: ['TX'] }, { name: 'No State' }, null],
    ['an empty state is no state', { states: ['TX'] }, { state: '' }, null],
    ['the minimum age passes', { min_age: 21 }, { age: 21 }, null],
    [
      'under the minimum is refused',
      { min_age: 21 },
      { age: 20 },
      "age 20 is under this source's minimum age of 21",
    ],
    ['the maximum age passes', { max_age: 64 }, { age: 64 }, null],
    [
      'over the maximum is refused',
      { max_age: 64 },
      { age: 65 },
      "age 65 is over this source's maximum age of 64",
    ],
    ['a lead without an age passes both bounds', { min_age: 21, max_age: 64 }, { state: 'TX' }, null],
    ['an age that is not a number is no age', { min_age: 21 }, { age: '12' }, null],
    [
      'consent required and missing is refused',
      { require_consent: true },
      { sms_consent: true },
      'this source requires consent evidence: consent_cert_url or consent_token is missing',
    ],
    [
      'a certificate is consent',
      { require_consent: true },
      { consent_cert_url: 'https://cert.trustedform.com/x' },
      null,
    ],
    ['a LeadiD token is consent', { require_consent: true }, { consent_token: 'ABC-123' }, null],
    [
      'blank evidence is none',
      { require_consent: true },
      { consent_cert_url: '  ', consent_token: '' },
      'this source requires consent evidence: consent_cert_url or consent_token is missing',
    ],
    ['consent not required takes a lead without it', { require_consent: false }, {}, null],
    [
      'the state is told before the age',
      { states: ['TX'], min_age: 30 },
      { state: 'OH', age: 20 },
      'state OH is not accepted by this source',
    ],
  ])('When %s', (_, rules, lead, details) => {
    const verdict = acceptLead(rules, lead);
    expect(verdict.accepted ? null : verdict.details).toBe(details);
  });

  const rules = fc.record(
    {
      states: fc.uniqueArray(fc.constantFrom('TX', 'OH', 'FL', 'CA', 'NY'), { minLength: 1 }),
      min_age: fc.integer({ min: 0, max: 150 }),
      max_age: fc.integer({ min: 0, max: 150 }),
      require_consent: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  const lead = fc.record(
    {
      state: fc.constantFrom('TX', 'OH', 'FL', 'CA', 'NY', 'WA'),
      age: fc.integer({ min: 0, max: 150 }),
      consent_cert_url: fc.constantFrom('https://cert.example/1', ''),
      consent_token: fc.constantFrom('T-1', ''),
    },
    { requiredKeys: [] },
  );

  it('When a lead carries none of the values a rule reads, then only require_consent can refuse it', () => {
    fc.assert(
      fc.property(rules, (r) => {
        const verdict = acceptLead(r, {});
        expect(verdict.accepted).toBe(r.require_consent !== true);
      }),
      RUNS,
    );
  });

  it('When a lead is refused, then the rule named is one that was set, and removing it never refuses for that rule again', () => {
    fc.assert(
      fc.property(rules, lead, (r, l) => {
        const verdict = acceptLead(r, l);
        if (verdict.accepted) return;
        expect(r[verdict.rule]).toBeDefined();
        const { [verdict.rule]: _removed, ...fewer } = r;
        const again = acceptLead(fewer, l);
        expect(again.accepted ? null : again.rule).not.toBe(verdict.rule);
      }),
      RUNS,
    );
  });

  it('When a rule is added, then a lead refused before is still refused (rules only narrow)', () => {
    fc.assert(
      fc.property(rules, rules, lead, (r, more, l) => {
        if (acceptLead(r, l).accepted) return;
        expect(acceptLead({ ...more, ...r }, l).accepted).toBe(false);
      }),
      RUNS,
    );
  });

  it('When a lead passes, then its state is on the list and its age within the bounds, whichever it carries', () => {
    fc.assert(
      fc.property(rules, lead, (r, l) => {
        if (!acceptLead(r, l).accepted) return;
        if (r.states && l.state) expect(r.states).toContain(l.state);
        if (r.min_age !== undefined && l.age !== undefined) expect(l.age).toBeGreaterThanOrEqual(r.min_age);
        if (r.max_age !== undefined && l.age !== undefined) expect(l.age).toBeLessThanOrEqual(r.max_age);
        if (r.require_consent) expect(Boolean(l.consent_cert_url) || Boolean(l.consent_token)).toBe(true);
      }),
      RUNS,
    );
  });
});
