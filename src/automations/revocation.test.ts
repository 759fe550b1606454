import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeReply, providerAnswers, readReply, revocation } from './revocation.ts';
import { OPT_IN_KEYWORDS, PROVIDER_OPT_OUT_KEYWORDS } from './tables/opt-in-keywords.ts';
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
  ['stop calling me, remove me from your list at work', 'stop calling'],
  ['Stop texting me before I call the police', 'stop texting'],
  ['Wrong number. Do not call after 5', 'wrong number'],
  ["don't call me at work and remove me from your list", 'remove me'],
  ['Never call me after 5', 'never call me'],
  ['Unsubscribe me, only text my wife', 'unsubscribe me'],
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

/**
 * Replies that limit when or how to be contacted without revoking consent (tables/contact-limits.ts):
 * each is `contact_limits`, with the words that limit, and never an opt-out.
 */
const CONTACT_LIMIT_REPLIES: Array<[string, string]> = [
  ["Please don't call me before 5, I work", 'before 5'],
  ["Don't call me at work, text instead", 'at work'],
  ['not before noon', 'not before noon'],
  ['Not before noon please', 'not before noon'],
  ['Yes, call me after 5pm please', 'after 5pm'],
  ['stop calling me at work please', 'at work'],
  ['Do not call me during business hours', 'during business hours'],
  ["Don't text me after 9pm", 'after 9pm'],
  ['Please do not call before 10 am', 'before 10 am'],
  ['dont call me until after lunch', 'after lunch'],
  ['Stop calling me in the morning', 'in the morning'],
  ['no more calls at night please', 'at night'],
  ["Don't call, text me instead", 'text me instead'],
  ['Please just text, I cannot talk at work', 'please just text'],
  ['Only text please', 'only text'],
  ['Email me instead of calling', 'email me instead'],
  ["Don't call on weekends", 'on weekends'],
  ['Please stop calling me while I am at work', 'while i am at work'],
  ["Don't call my work number", 'my work number'],
  ['call me on my cell', 'on my cell'],
  ['Can you call me around 6?', 'around 6'],
  ['after 6 please', 'after 6'],
  ["Don't call me till I get home", 'till i get home'],
  ['Call me tomorrow after 3', 'after 3'],
  ['Do not contact me before monday', 'before monday'],
  ['No me llames antes de las 5', 'antes de las 5'],
  ['Por favor no me llamen en el trabajo', 'en el trabajo'],
  ['No me llames, mejor por mensaje', 'mejor por mensaje'],
  ['Llámame después de las 6', 'despues de las 6'],
  ['No me llamen por la mañana', 'por la manana'],
  ['Solo por whatsapp por favor', 'solo por whatsapp'],
  ['Deja de llamarme en horas de trabajo', 'en horas de trabajo'],
];

describe('revocation in plain words', () => {
  it.each(CONTACT_LIMIT_REPLIES)(
    'When the reply is %j, then it limits contact by %j and is not an opt-out',
    (text, limit) => {
      expect(readReply(text)).toEqual({ intent: 'contact_limits', limit });
      expect(revocation(text)).toBeNull();
    },
  );

  it('When the whole reply is START, UNSTOP or YES, then it is a reply asking for texts again; within a sentence it is a plain reply', () => {
    const asks: Array<[string, string]> = [
      ['START', 'START'],
      ['start', 'START'],
      [' Unstop! ', 'UNSTOP'],
      ['yes', 'YES'],
    ];
    for (const [reply, keyword] of asks)
      expect(readReply(reply), reply).toEqual({ intent: 'reply', opt_in: keyword });
    for (const keyword of OPT_IN_KEYWORDS) expect(readReply(keyword)).toMatchObject({ opt_in: keyword });
    for (const reply of ['Yes, call me tomorrow', 'start over please', 'yesterday'])
      expect(readReply(reply), reply).toEqual({ intent: 'reply' });
  });

  it('When a reply is one of the keywords Twilio answers itself, alone, then the provider answered it; anything else it passed on', () => {
    for (const keyword of PROVIDER_OPT_OUT_KEYWORDS) {
      expect(providerAnswers(keyword), keyword).toBe(true);
      expect(readReply(keyword), keyword).toMatchObject({ intent: 'opt_out' });
    }
    expect(providerAnswers(' stop. ')).toBe(true);
    for (const reply of ['STOP PLEASE', 'please stop texting me', 'ALTO', 'REVOKE', 'start'])
      expect(providerAnswers(reply), reply).toBe(false);
  });

  it('When a reply is a plain one, then it is read as a reply', () => {
    for (const text of ['Sounds good, thanks', 'What number is this?', '', 'Gracias, me interesa'])
      expect(readReply(text), text).toEqual({ intent: 'reply' });
  });

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
