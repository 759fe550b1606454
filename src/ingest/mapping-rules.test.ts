import { describe, expect, it } from 'vitest';
import { mapSubmission } from './map-submission.ts';
import { MAPPING_RULE_LIMITS, parseMappingRules, ruleMatcher } from './mapping-rules.ts';

const NOW = new Date('2027-02-12T00:00:00Z');

describe('parseMappingRules', () => {
  it('When rules name lead fields or null, then they are accepted as sent', () => {
    expect(parseMappingRules({ '1.3': 'first_name', q_coverage: 'coverage_amount', debug: null })).toEqual({
      ok: true,
      rules: { '1.3': 'first_name', q_coverage: 'coverage_amount', debug: null },
    });
    expect(parseMappingRules({})).toEqual({ ok: true, rules: {} });
  });

  it.each<[string, unknown, string]>([
    ['not an object', ['first_name'], 'rules must be an object'],
    ['null', null, 'rules must be an object'],
    ['an unknown field', { '1.3': 'firstname' }, 'Unknown field "firstname" for rule "1.3"'],
    ['a control field', { x: 'listen' }, 'Unknown field "listen"'],
    ['a number as target', { x: 3 }, 'Unknown field 3'],
    ['a blank key', { ' ': 'email' }, "A rule's key must be"],
    [
      'a key too long',
      { ['k'.repeat(MAPPING_RULE_LIMITS.maxKeyLength + 1)]: 'email' },
      "A rule's key must be",
    ],
    [
      'too many rules',
      Object.fromEntries(
        Array.from({ length: MAPPING_RULE_LIMITS.maxRules + 1 }, (_, i) => [`k${i}`, 'email']),
      ),
      `At most ${MAPPING_RULE_LIMITS.maxRules} rules`,
    ],
  ])('When the rules are %s, then they are refused with a reason', (_label, rules, details) => {
    const check = parseMappingRules(rules);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.details).toContain(details);
  });

  it('When a rule key is __proto__, then it is an ordinary rule', () => {
    const check = parseMappingRules(JSON.parse('{"__proto__": "email"}'));
    expect(check.ok && Object.keys(check.rules)).toEqual(['__proto__']);
    expect(ruleMatcher(check.ok ? check.rules : {})('__proto__')).toEqual({ target: 'email' });
  });
});

describe('ruleMatcher', () => {
  const match = ruleMatcher({ '1.3': 'first_name', 'Q Coverage': 'coverage_amount', debug: null });
  it.each<[string, unknown]>([
    ['1.3', { target: 'first_name' }],
    ['1_3', { target: 'first_name' }],
    ['13', undefined],
    ['q_coverage', { target: 'coverage_amount' }],
    ['qCoverage', { target: 'coverage_amount' }],
    ['DEBUG', { ignore: true }],
    ['email', undefined],
  ])('When the key is %s, then the rule is %j', (key, expected) => {
    expect(match(key)).toEqual(expected);
  });
});

describe('mapSubmission with a source’s rules', () => {
  const body = {
    '1.3': 'Beatriz',
    '1.6': 'Alvarez',
    email: 'b@example.com',
    q_coverage: '100000',
    debug: 'gf 1.6',
    first_name: 'Not Her',
  };

  it('When rules name the keys, then they fill those fields, win over the field’s own name, and null drops a key', () => {
    const mapped = mapSubmission(body, {
      now: NOW,
      rules: { '1.3': 'first_name', '1.6': 'last_name', q_coverage: 'coverage_amount', debug: null },
    });
    expect(mapped.lead).toEqual({
      first_name: 'Beatriz',
      last_name: 'Alvarez',
      name: 'Beatriz Alvarez',
      email: 'b@example.com',
      coverage_amount: '100000',
    });
    expect(mapped.custom_fields).toEqual({ first_name: 'Not Her' });
  });

  it('When there are no rules, then the same body keeps the unknown keys in custom_fields', () => {
    const mapped = mapSubmission(body, { now: NOW });
    expect(mapped.lead).toEqual({ first_name: 'Not Her', name: 'Not Her', email: 'b@example.com' });
    expect(mapped.custom_fields).toEqual({
      '1.3': 'Beatriz',
      '1.6': 'Alvarez',
      q_coverage: '100000',
      debug: 'gf 1.6',
    });
  });

  it('When a rule names a key of a nested or wrapped body, then it applies after the envelope is read', () => {
    const mapped = mapSubmission(
      {
        fields: [
          { name: 'q_7', value: 'Gold plan' },
          { name: 'name', value: 'Ann' },
        ],
      },
      { now: NOW, rules: { q_7: 'coverage_type' } },
    );
    expect(mapped.lead).toMatchObject({ coverage_type: 'Gold plan', name: 'Ann' });
    expect(mapped.format).toBe('field_list');
  });
});
