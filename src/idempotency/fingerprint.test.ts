import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapSubmission } from '../ingest/map-submission.ts';
import type { JsonObject } from '../json.ts';
import { fingerprintContact, isSameContact, type ContactFingerprint } from './fingerprint.ts';

const fp = (name: string | null, phone: string | null, email: string | null): ContactFingerprint => ({
  name,
  phone,
  email,
});

describe('fingerprintContact', () => {
  it.each<[string, Record<string, unknown>, ContactFingerprint]>([
    [
      'all three, normalized',
      { name: '  Jane   DOE ', phone: '2145550100', email: 'Jane@Example.com ' },
      fp('jane doe', '2145550100', 'jane@example.com'),
    ],
    ['blank values are absent', { name: '   ', phone: '', email: undefined }, fp(null, null, null)],
    [
      'values that are no text are absent',
      { name: 7, phone: ['2145550100'], email: null },
      fp(null, null, null),
    ],
    ['other fields do not count', { name: 'Al', city: 'Austin', notes: 'x' }, fp('al', null, null)],
  ])('When a lead has %s, then the fingerprint is as the table says', (_label, lead, expected) => {
    expect(fingerprintContact(lead)).toEqual(expected);
  });
});

describe('isSameContact: a retry, or another person under a reused key', () => {
  it.each<[string, ContactFingerprint, ContactFingerprint, boolean]>([
    [
      'everything equal',
      fp('jane doe', '2145550100', 'j@x.com'),
      fp('jane doe', '2145550100', 'j@x.com'),
      true,
    ],
    [
      'a corrected phone, same name',
      fp('jane doe', '2145550100', null),
      fp('jane doe', '2145550199', null),
      true,
    ],
    ['a corrected name, same email', fp('jane', null, 'j@x.com'), fp('jane doe', null, 'j@x.com'), true],
    ['the same phone only', fp('a', '2145550100', 'a@x.com'), fp('b', '2145550100', 'b@x.com'), true],
    [
      'name, phone and email all differ',
      fp('jane', '2145550100', 'j@x.com'),
      fp('john', '2145550199', 'k@x.com'),
      false,
    ],
    ['nothing on one side', fp(null, null, null), fp('jane', '2145550100', 'j@x.com'), false],
    ['nothing on either side', fp(null, null, null), fp(null, null, null), false],
    ['a phone on one side only', fp('jane', '2145550100', null), fp('john', null, 'k@x.com'), false],
  ])('When the two have %s, then same contact: %s', (_label, a, b, same) => {
    expect(isSameContact(a, b)).toBe(same);
    expect(isSameContact(b, a)).toBe(same);
  });
});

describe('fingerprint: properties', () => {
  const contactBody = fc.record(
    {
      name: fc.constantFrom('Jane Doe', ' jane  doe', 'John Roe', ''),
      first_name: fc.constantFrom('Jane', 'Al'),
      last_name: fc.constantFrom('Doe', 'Ias'),
      phone: fc.constantFrom('(214) 555-0100', '2145550199', '555'),
      email: fc.constantFrom('Jane@Example.com', 'x@y.org', 'not-an-email'),
      city: fc.constantFrom('Austin', 'Dallas'),
      notes: fc.string({ maxLength: 10 }),
    },
    { requiredKeys: [] },
  );

  it('When a body’s keys come in another order, then its fingerprint is the same', () => {
    const bodyAndShuffle = contactBody.chain((body) => {
      const entries = Object.entries(body);
      const n = entries.length;
      return fc.tuple(fc.constant(body), fc.shuffledSubarray(entries, { minLength: n, maxLength: n }));
    });
    const now = new Date('2027-01-15T12:00:00Z');
    fc.assert(
      fc.property(bodyAndShuffle, ([body, shuffled]) => {
        const a = fingerprintContact(mapSubmission(body as JsonObject, { now }).lead);
        const b = fingerprintContact(mapSubmission(Object.fromEntries(shuffled) as JsonObject, { now }).lead);
        expect(b).toEqual(a);
      }),
      { numRuns: 500 },
    );
  });

  it('When a fingerprint has any value, then it is the same contact as itself, and sameness is symmetric', () => {
    const value = fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null });
    fc.assert(
      fc.property(value, value, value, value, value, value, (n1, p1, e1, n2, p2, e2) => {
        const a = fp(n1, p1, e1);
        const b = fp(n2, p2, e2);
        expect(isSameContact(a, a)).toBe(n1 !== null || p1 !== null || e1 !== null);
        expect(isSameContact(a, b)).toBe(isSameContact(b, a));
      }),
    );
  });
});
