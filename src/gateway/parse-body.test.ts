import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject, type JsonObject } from '../json.ts';
import { nestingDepth, parseDeliveryBody, parseForm } from './parse-body.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const NOT_AN_OBJECT = 'The body must be a JSON object';

describe('parseDeliveryBody: per content type', () => {
  it.each<[string | undefined]>([
    ['application/json'],
    ['application/json; charset=utf-8'],
    ['text/plain'],
    ['application/octet-stream'],
    ['multipart/form-data; boundary=x'],
    [undefined],
  ])('When JSON arrives as %s, then it is read as JSON', (contentType) => {
    expect(parseDeliveryBody(bytes('{"name":"Jane","tags":["a"]}'), contentType)).toEqual({
      ok: true,
      body: { name: 'Jane', tags: ['a'] },
    });
  });

  it.each<[string]>([
    ['application/x-www-form-urlencoded'],
    ['application/x-www-form-urlencoded; charset=UTF-8'],
    ['  Application/X-WWW-Form-Urlencoded'],
  ])('When a form arrives as %s, then it is read as a form', (contentType) => {
    expect(parseDeliveryBody(bytes('name=Jane+Doe&phone=%28214%29+555-0100'), contentType)).toEqual({
      ok: true,
      body: { name: 'Jane Doe', phone: '(214) 555-0100' },
    });
  });

  it.each<[string, string | undefined, string]>([
    ['an empty body', '', `${NOT_AN_OBJECT}; the body is empty`],
    ['only white space', ' \n\t ', `${NOT_AN_OBJECT}; the body is empty`],
    ['only a byte-order mark', '\uFEFF', `${NOT_AN_OBJECT}; the body is empty`],
    ['an array', '[{"name":"Jane"}]', NOT_AN_OBJECT],
    ['null', 'null', NOT_AN_OBJECT],
    ['a string', '"Jane"', NOT_AN_OBJECT],
    ['a number', '42', NOT_AN_OBJECT],
    ['33 levels of nesting', `${'{"a":'.repeat(33)}1${'}'.repeat(33)}`, 'JSON nested deeper than 32 levels'],
  ])('When the body is %s, then it is refused', (_label, text, details) => {
    expect(parseDeliveryBody(text === undefined ? undefined : bytes(text), 'application/json')).toEqual({
      ok: false,
      details,
    });
  });

  it('When the body is missing or not JSON, then it is refused with the parser’s reason', () => {
    expect(parseDeliveryBody(undefined, undefined)).toEqual({
      ok: false,
      details: `${NOT_AN_OBJECT}; the body is empty`,
    });
    const parsed = parseDeliveryBody(bytes('{"name":'), 'application/json');
    expect(parsed.ok).toBe(false);
  });

  it('When the body starts with a byte-order mark or is nested exactly 32 levels, then it is read', () => {
    expect(parseDeliveryBody(bytes('\uFEFF{"name":"Jane"}'), undefined)).toEqual({
      ok: true,
      body: { name: 'Jane' },
    });
    const deep = `${'{"a":'.repeat(32)}1${'}'.repeat(32)}`;
    expect(parseDeliveryBody(bytes(deep), undefined).ok).toBe(true);
  });
});

describe('nestingDepth', () => {
  it.each<[string, number]>([
    ['{}', 1],
    ['{"a":[1,{"b":[]}]}', 4],
    ['{"a":"[[[[{{{{"}', 1],
    ['{"a":"\\"[[["}', 1],
    ['{"a":"\\\\","b":[[]]}', 3],
    ['', 0],
  ])('When the text is %s, then the depth is %i', (text, depth) => {
    expect(nestingDepth(text)).toBe(depth);
  });

  it('When any JSON value is written out, then its counted depth is its real depth', () => {
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(nestingDepth(JSON.stringify(value))).toBe(depthOf(value));
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseForm', () => {
  it.each<[string, JsonObject]>([
    ['tags=a&tags=b&tags=c', { tags: ['a', 'b', 'c'] }],
    [
      'custom_fields%5Bjoin_url%5D=https%3A%2F%2Fj.example&custom_fields%5Bscore%5D=7',
      { custom_fields: { join_url: 'https://j.example', score: '7' } },
    ],
    ['tags%5B%5D=a&tags%5B%5D=b', { tags: ['a', 'b'] }],
    ['a%5Bb%5D%5Bc%5D=deep', { 'a[b][c]': 'deep' }],
    ['name=x&name%5Bfirst%5D=y', { name: 'x', 'name[first]': 'y' }],
    ['empty=&=nokey', { empty: '', '': 'nokey' }],
  ])('When the form is %s, then the body is as the table says', (text, expected) => {
    expect(parseForm(text)).toEqual(expected);
  });

  it('When a form names __proto__, then it is an ordinary key and nothing is polluted', () => {
    const body = parseForm('__proto__=x&__proto__%5Bpolluted%5D=yes&constructor=c');
    expect(Object.keys(body)).toEqual(['__proto__', '__proto__[polluted]', 'constructor']);
    expect(body['__proto__[polluted]']).toBe('yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseDeliveryBody: properties', () => {
  it('When any bytes arrive with any content type, then parsing never throws and an accepted body is an object', () => {
    const contentType = fc.option(
      fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''),
      { nil: undefined },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), contentType, (raw, type) => {
        const parsed = parseDeliveryBody(Buffer.from(raw), type);
        if (parsed.ok) expect(isJsonObject(parsed.body)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('When a JSON object is sent, then it is read back unchanged', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (obj) => {
        const parsed = parseDeliveryBody(bytes(JSON.stringify(obj)), 'application/json');
        expect(parsed).toEqual({ ok: true, body: JSON.parse(JSON.stringify(obj)) });
      }),
      { numRuns: 500 },
    );
  });
});
