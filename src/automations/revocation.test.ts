import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeReply, revocation } from './revocation.ts';
import { OPT_OUT_KEYWORDS, OPT_OUT_PHRASES } from './tables/revocation-phrases.ts';

/** Replies that revoke consent, and the phrase or keyword that does it. */
const OPT_OUTS: Array<[string, string]> = [
  ['STOP', 'STOP'],
  [' stop ', 'STOP'],
  ['Stop.', 'STOP'],
  ['opt  out', 'OPT OUT'],
  ['UnSubscribe!', 'UNSUBSCRIBE'],
  ['please stop', 'PLEASE STOP'],
  ['Stop please!!', 'STOP PLEASE'],
  ['ALTO', 'ALTO'],
  ['Basta.', 'BASTA'],
  ['stop texting me', 'stop texting'],
  ['Please STOP texting me!!!', 'stop texting'],
  ['stop calling me at work please', 'stop calling'],
  ['Remove me from your list', 'remove me'],
  ['pls take me off ur list', 'take me off'],
  ["Don't contact me again", 'dont contact'],
  ['Don’t contact me again', 'dont contact'],
  ['DO NOT CALL THIS NUMBER', 'do not call'],
  ['wrong number', 'wrong number'],
  ['Sorry, wrong number.', 'wrong number'],
  ['You have the wrong person', 'wrong person'],
  ['No, stop texting me', 'stop texting'],
  ['I never signed up for this', 'never signed up'],
  ['leave me alone', 'leave me alone'],
  ['no more texts', 'no more texts'],
  ['Lose my number', 'lose my number'],
  ['No me envíes más mensajes', 'no me envies'],
  ['no me envies mas mensajes', 'no me envies'],
  ['Bórrame de la lista', 'borrame'],
  ['Número equivocado', 'numero equivocado'],
  ['numero equivocado', 'numero equivocado'],
  ['Por favor no me llamen', 'no me llamen'],
  ['Dejen de escribirme', 'dejen de escribirme'],
  ['Sácame de su lista', 'sacame de'],
  ['Ya no quiero recibir mensajes', 'no quiero recibir'],
  ['Hola, dame de baja por favor', 'dame de baja'],
];

/** Replies that do not revoke consent, however close they come. */
const NOT_OPT_OUTS = [
  'stop by at 5pm',
  "I can't stop laughing",
  'Could you stop by the house tomorrow?',
  "Don't stop texting me, I like the updates",
  'Yes please call me after 5',
  'can you call me at work',
  'What number is this?',
  'Is this the right number to call?',
  'The end of the month works for me',
  'Cancel my 3pm appointment and book Thursday',
  'Please text me the quote',
  'no problem',
  'Sounds good, thanks',
  'I will remove my car from the driveway',
  'send me the numbers',
  'Sí, llámame mañana',
  'Para mañana por favor',
  '¿Cuál es su número?',
  'Gracias, me interesa',
  '',
  '   ',
  '🙂',
];

describe('revocation in plain words', () => {
  it.each(OPT_OUTS)('When the reply is %j, then it is an opt-out by %j', (text, by) => {
    const r = revocation(text);
    expect(r).not.toBeNull();
    expect(r?.by === 'keyword' ? r.keyword : r?.phrase).toBe(by);
  });

  it.each(NOT_OPT_OUTS)('When the reply is %j, then it is not an opt-out', (text) => {
    expect(revocation(text)).toBeNull();
  });

  it('When a keyword or phrase of the tables is the reply, then it opts out (every row is reachable)', () => {
    for (const { keyword } of OPT_OUT_KEYWORDS) expect(revocation(keyword), keyword).not.toBeNull();
    for (const { phrase } of OPT_OUT_PHRASES) expect(revocation(`hi ${phrase}`), phrase).not.toBeNull();
  });

  it('When a reply is written in another case, with other punctuation or spacing, then the answer is the same', () => {
    const reply = fc.constantFrom(...OPT_OUTS.map(([t]) => t), ...NOT_OPT_OUTS);
    const respell = fc.tuple(
      fc.array(fc.boolean(), { minLength: 0, maxLength: 80 }),
      fc.constantFrom(' ', '  ', '\t', ' \u00a0'),
      fc.constantFrom('', '!', '!!!', '.', '...', ' :)'),
    );
    fc.assert(
      fc.property(reply, respell, (text, [upper, space, tail]) => {
        const respelled =
          [...text]
            .map((c, i) => (upper[i % Math.max(upper.length, 1)] ? c.toUpperCase() : c.toLowerCase()))
            .join('')
            .replace(/ /g, space) + tail;
        expect(revocation(respelled) !== null).toBe(revocation(text) !== null);
      }),
    );
  });

  it('When an opt-out is followed or preceded by another sentence, then it still opts out', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPT_OUTS.map(([t]) => t)),
        fc.constantFrom('Hi.', 'Thanks.', 'Hola.', 'Ok.'),
        fc.constantFrom('', ' Thanks.', ' Gracias.', ' Bye!'),
        (text, before, after) => {
          expect(revocation(`${before} ${text}.${after}`)).not.toBeNull();
        },
      ),
    );
  });

  it('When any text is read, then reading never throws and normalizing is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        revocation(text);
        expect(normalizeReply(normalizeReply(text))).toBe(normalizeReply(text));
      }),
    );
  });
});
