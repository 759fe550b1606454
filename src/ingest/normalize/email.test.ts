import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './email.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizeEmail', () => {
  it.each<[string, string]>([
    ['ada@example.com', 'ada@example.com'],
    ['  Ada.Lovelace@Example.COM ', 'ada.lovelace@example.com'],
    ['first+tag@sub.example.co.uk', 'first+tag@sub.example.co.uk'],
    ["o'brien@example.org", "o'brien@example.org"],
    ['user@xn--bcher-kva.example', 'user@xn--bcher-kva.example'],
    ['a_b-c@my-domain.io', 'a_b-c@my-domain.io'],
  ])('When the email is %j, then it becomes %s', (input, expected) => {
    expect(normalizeEmail(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>([
    'ada',
    'ada@',
    '@example.com',
    'ada@example',
    'ada@@example.com',
    'ada @example.com',
    'ada@exa mple.com',
    '.ada@example.com',
    'ada.@example.com',
    'a..da@example.com',
    'ada@-example.com',
    'ada@example.c',
    'ada@example.123',
    `${'a'.repeat(250)}@example.com`,
    42,
    ['ada@example.com'],
  ])('When the email is %j, then it is INVALID_EMAIL', (input) => {
    expect(normalizeEmail(input)).toMatchObject({ ok: false, code: 'INVALID_EMAIL' });
  });
});
