import { describe, expect, it } from 'vitest';
import { normalizePersonName, normalizeText } from './text.ts';
import type { JsonValue } from '../../json.ts';

describe('normalizeText', () => {
  it.each<[JsonValue, string]>([
    ['  hello  ', 'hello'],
    ['line one\nline two', 'line one\nline two'],
    ['  keeps   inner   spaces ', 'keeps   inner   spaces'],
    [250000, '250000'],
    [12.5, '12.5'],
    [true, 'true'],
    ['2027-01-15T19:30:00Z', '2027-01-15T19:30:00Z'],
  ])('When the text is %j, then it becomes %j', (input, expected) => {
    expect(normalizeText(input)).toEqual({ ok: true, value: expected });
  });

  it.each<JsonValue>([{ a: 1 }, ['a'], []])('When the text is %j, then it is INVALID_TYPE', (input) => {
    expect(normalizeText(input)).toMatchObject({ ok: false, code: 'INVALID_TYPE' });
  });
});

describe('normalizePersonName', () => {
  it.each<[JsonValue, string]>([
    ['  Ada   Lovelace ', 'Ada Lovelace'],
    ['Mary\tJane  Watson', 'Mary Jane Watson'],
    ['Zoë 🙂', 'Zoë 🙂'],
  ])('When the name is %j, then it becomes %j', (input, expected) => {
    expect(normalizePersonName(input)).toEqual({ ok: true, value: expected });
  });
});
