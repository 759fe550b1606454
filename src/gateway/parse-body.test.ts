import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.ts';
import { isJsonObject, type JsonObject } from '../json.ts';
import type { ParsedBody } from './parse-body.ts';
import { countMembers } from '../ingest/envelopes/read-json.ts';
import { parseDeliveryBody, parseForm, readDeliveryBody } from './parse-body.ts';

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
      warnings: [],
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
      warnings: [],
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
      code: 'INVALID_JSON',
      details,
    });
  });

  it('When the body is missing or not JSON, then it is refused with the parser’s reason', () => {
    expect(parseDeliveryBody(undefined, undefined)).toEqual({
      ok: false,
      code: 'INVALID_JSON',
      details: `${NOT_AN_OBJECT}; the body is empty`,
    });
    const parsed = parseDeliveryBody(bytes('{"name":'), 'application/json');
    expect(parsed.ok).toBe(false);
  });

  it('When the body starts with a byte-order mark or is nested exactly 32 levels, then it is read', () => {
    expect(parseDeliveryBody(bytes('\uFEFF{"name":"Jane"}'), undefined)).toEqual({
      ok: true,
      warnings: [],
      body: { name: 'Jane' },
    });
    const deep = `${'{"a":'.repeat(32)}1${'}'.repeat(32)}`;
    expect(parseDeliveryBody(bytes(deep), undefined).ok).toBe(true);
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
  it('When any bytes arrive with any content type, then parsing never throws and an accepted body is an object', async () => {
    const contentType = fc.option(
      fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=b',
        '',
      ),
      { nil: undefined },
    );
    const text = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((raw) => Buffer.from(raw)),
      fc
        .array(
          fc.constantFrom(
            '<a>',
            '</a>',
            '<b x="1">',
            '</b>',
            '<c/>',
            'text',
            '&amp;',
            '{',
            '"',
            '--b\r\n',
            '\r\n',
          ),
        )
        .map((parts) => bytes(parts.join(''))),
    );
    await fc.assert(
      fc.asyncProperty(text, contentType, async (raw, type) => {
        const parsed = await readDeliveryBody(raw, type);
        if (parsed.ok) expect(isJsonObject(parsed.body)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('When a JSON object is sent, then it is read back unchanged', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (obj) => {
        const parsed = parseDeliveryBody(bytes(JSON.stringify(obj)), 'application/json');
        expect(parsed).toEqual({ ok: true, warnings: [], body: JSON.parse(JSON.stringify(obj)) });
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseDeliveryBody: JSON sent as a form, XML', () => {
  it('When JSON arrives with a form content type (curl -d without -H), then it is read as JSON', () => {
    const parsed = parseDeliveryBody(
      bytes('{"name":"Jane Doe","tags":["a"]}'),
      'application/x-www-form-urlencoded',
    );
    expect(parsed).toEqual({ ok: true, warnings: [], body: { name: 'Jane Doe', tags: ['a'] } });
  });

  it('When a form merely starts with a brace, then it is still read as a form', () => {
    expect(parseDeliveryBody(bytes('{x=1&name=Jane'), 'application/x-www-form-urlencoded')).toEqual({
      ok: true,
      warnings: [],
      body: { '{x': '1', name: 'Jane' },
    });
  });

  it.each<[string, string | undefined]>([
    ['application/xml', 'application/xml'],
    ['text/xml; charset=utf-8', 'text/xml; charset=utf-8'],
    ['application/soap+xml', 'application/soap+xml'],
    ['no content type', undefined],
    ['text/plain', 'text/plain'],
    ['a form content type (curl -d @lead.xml)', 'application/x-www-form-urlencoded'],
  ])('When an XML lead arrives as %s, then the root element’s children are the body', (_label, type) => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <lead>
        <first_name>Jane &amp; Co</first_name>
        <phone type="cell">(214) 555-0100</phone>
        <address><city>Dallas</city><state>TX</state></address>
        <tag>a</tag><tag>b</tag>
        <empty/>
        <!-- a comment -->
        <notes><![CDATA[<b>call</b> after 5]]></notes>
      </lead>`;
    expect(parseDeliveryBody(bytes(xml), type)).toEqual({
      ok: true,
      warnings: [],
      body: {
        first_name: 'Jane & Co',
        phone: '(214) 555-0100',
        'phone@type': 'cell',
        address: { city: 'Dallas', state: 'TX' },
        tag: ['a', 'b'],
        empty: '',
        notes: '<b>call</b> after 5',
      },
    });
  });

  it.each<[string, string, string]>([
    [
      'a DOCTYPE with entities',
      '<!DOCTYPE l [<!ENTITY a "aaaa">]><l><n>&a;&a;</n></l>',
      'XML with a DOCTYPE',
    ],
    ['an external entity', '<!DOCTYPE l SYSTEM "file:///etc/passwd"><l>x</l>', 'XML with a DOCTYPE'],
    ['33 levels of elements', `${'<a>'.repeat(33)}x${'</a>'.repeat(33)}`, 'XML nested deeper than 32 levels'],
    ['unclosed tags', '<lead><name>Jane</lead>', 'Unreadable XML'],
  ])('When the XML is %s, then it is refused as INVALID_JSON', (_label, xml, details) => {
    const parsed = parseDeliveryBody(bytes(xml), 'application/xml');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.code).toBe('INVALID_JSON');
      expect(parsed.details).toContain(details);
    }
  });

  it('When XML opens 8,000 tags in a row, or hides nesting in attributes, then it is refused at once (no backtracking)', () => {
    for (const text of ['<'.repeat(8_000), `<${'a'.repeat(200_000)}`]) {
      expect(parseDeliveryBody(bytes(text), 'application/xml')).toMatchObject({
        ok: false,
        code: 'INVALID_JSON',
      });
    }
    const hidden = `<lead>${'<a x="/>">'.repeat(40)}v${'</a>'.repeat(40)}</lead>`;
    expect(parseDeliveryBody(bytes(hidden), 'application/xml')).toEqual({
      ok: false,
      code: 'INVALID_JSON',
      details: 'XML nested deeper than 32 levels',
    });
    expect(parseDeliveryBody(bytes(`${'<a>'.repeat(32)}x${'</a>'.repeat(32)}`), 'application/xml').ok).toBe(
      true,
    );
  });
});

describe('readDeliveryBody: multipart/form-data', () => {
  const multipart = (parts: Array<[string, string, string?]>) =>
    bytes(
      parts
        .map(([name, value, filename]) =>
          [
            '--XyZ',
            `Content-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`,
            ...(filename ? ['Content-Type: image/jpeg'] : []),
            '',
            value,
          ].join('\r\n'),
        )
        .join('\r\n') + '\r\n--XyZ--\r\n',
    );

  it('When a multipart form arrives (Jotform), then its text parts are the body and a file keeps its name', async () => {
    const raw = multipart([
      ['formID', '2401'],
      ['rawRequest', '{"q3_name":{"first":"Jane","last":"Doe"}}'],
      ['tags', 'a'],
      ['tags', 'b'],
      ['photo', 'JPEGBYTES', 'me.jpg'],
    ]);
    expect(await readDeliveryBody(raw, 'multipart/form-data; boundary=XyZ')).toEqual({
      ok: true,
      warnings: [],
      body: {
        formID: '2401',
        rawRequest: '{"q3_name":{"first":"Jane","last":"Doe"}}',
        tags: ['a', 'b'],
        photo: 'me.jpg (image/jpeg)',
      },
    });
  });

  it('When a multipart body is broken or has no boundary, then it is refused as INVALID_JSON', async () => {
    const broken = await readDeliveryBody(bytes('--XyZ\r\nnothing'), 'multipart/form-data; boundary=XyZ');
    expect(broken).toMatchObject({ ok: false, code: 'INVALID_JSON' });
    const noBoundary = await readDeliveryBody(multipart([['a', 'b']]), 'multipart/form-data');
    expect(noBoundary).toMatchObject({ ok: false, code: 'INVALID_JSON' });
  });

  it('When JSON arrives labelled multipart, then it is read as JSON', async () => {
    expect(await readDeliveryBody(bytes('{"name":"Jane"}'), 'multipart/form-data; boundary=x')).toEqual({
      ok: true,
      warnings: [],
      body: { name: 'Jane' },
    });
  });
});

describe('member limit: the same for JSON, forms, multipart and XML', () => {
  const MAX = LIMITS.maxBodyMembers;
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

  it.each<[string, (n: number) => Promise<ParsedBody> | ParsedBody]>([
    [
      'JSON',
      (n) =>
        parseDeliveryBody(bytes(JSON.stringify(Object.fromEntries(keys(n).map((k) => [k, 1])))), undefined),
    ],
    [
      'a form',
      (n) =>
        parseDeliveryBody(
          bytes(
            keys(n)
              .map((k) => `${k}=1`)
              .join('&'),
          ),
          'application/x-www-form-urlencoded',
        ),
    ],
    [
      'XML',
      (n) =>
        parseDeliveryBody(
          bytes(
            `<l>${keys(n)
              .map((k) => `<${k}>1</${k}>`)
              .join('')}</l>`,
          ),
          'application/xml',
        ),
    ],
    [
      'multipart',
      (n) =>
        readDeliveryBody(
          bytes(
            keys(n)
              .map((k) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n1`)
              .join('\r\n') + '\r\n--B--\r\n',
          ),
          'multipart/form-data; boundary=B',
        ),
    ],
  ])(
    'When %s has one member too many, then it is refused as too large; at the limit it is read',
    async (_label, parse) => {
      expect((await parse(MAX)).ok).toBe(true);
      expect(await parse(MAX + 1)).toEqual({
        ok: false,
        code: 'PAYLOAD_TOO_LARGE',
        details: `The body must have at most ${MAX} members`,
      });
    },
  );

  it('When a list of 130,000 items is sent (JSON or a form), then it is refused as too large, never thrown', () => {
    const list = `{"a":[${Array.from({ length: 130_000 }, () => '0').join(',')}]}`;
    expect(parseDeliveryBody(bytes(list), 'application/json')).toMatchObject({
      ok: false,
      code: 'PAYLOAD_TOO_LARGE',
    });
    const form = Array.from({ length: 130_000 }, () => 'a').join('&');
    expect(parseDeliveryBody(bytes(form), 'application/x-www-form-urlencoded')).toMatchObject({
      ok: false,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('When members are nested, then every key and list item counts', () => {
    expect(countMembers({ a: [1, 2, { b: null }], c: {} })).toBe(6);
    expect(countMembers('x')).toBe(0);
  });
});

describe('parseDeliveryBody: what reading changed is reported', () => {
  it('When XML carries character references, then they are decoded; those naming no storable character are reported', () => {
    const parsed = parseDeliveryBody(
      bytes('<lead><name>Jos&#233; P&#xE9;rez &#x1F600;</name><a>x&#0;y</a><b>x&#xD800;y</b></lead>'),
      'application/xml',
    );
    expect(parsed).toMatchObject({ ok: true, body: { name: 'José Pérez 😀', a: 'xy', b: 'xy' } });
    expect(parsed.ok && parsed.warnings.map((w) => [w.code, w.message])).toEqual([
      ['UNSTORABLE_CHARACTERS_REMOVED', expect.stringContaining('&#0;')],
      ['UNSTORABLE_CHARACTERS_REMOVED', expect.stringContaining('&#xD800;')],
    ]);
  });

  it('When a JSON object names a key twice, at any depth, then the last value is kept and each such key is reported once', () => {
    const parsed = parseDeliveryBody(
      bytes(
        '{"name":"A","phone":"1","name":"B","x":{"k":1,"k":2,"k":3},"l":[{"k":1},{"k":2}],"na\\u006de":"C"}',
      ),
      'application/json',
    );
    expect(parsed).toMatchObject({ ok: true, body: { name: 'C', x: { k: 3 } } });
    expect(parsed.ok && parsed.warnings.map((w) => [w.field, w.code])).toEqual([
      ['name', 'DUPLICATE_KEY'],
      ['k', 'DUPLICATE_KEY'],
    ]);
  });

  it('When keys only look alike (other objects, other case, inside strings), then nothing is reported', () => {
    const parsed = parseDeliveryBody(
      bytes('{"a":{"k":1},"b":{"k":2},"K":1,"k":"\\"k\\":1,","s":"{\\"k\\":1,\\"k\\":2}","l":[["k","k"]]}'),
      undefined,
    );
    expect(parsed).toMatchObject({ ok: true, warnings: [] });
  });

  it('When the body is not valid UTF-8, then it is read with U+FFFD and reported', () => {
    const raw = Buffer.concat([bytes('{"name":"Jos'), Buffer.from([0xe9]), bytes('"}')]);
    const parsed = parseDeliveryBody(raw, 'application/json');
    expect(parsed).toMatchObject({ ok: true, body: { name: 'Jos\uFFFD' } });
    expect(parsed.ok && parsed.warnings.map((w) => w.code)).toEqual(['INVALID_UTF8_REPLACED']);
    expect(parseDeliveryBody(bytes('{"name":"Jos\uFFFD"}'), undefined)).toMatchObject({ warnings: [] });
  });
});
