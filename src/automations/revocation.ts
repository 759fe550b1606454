import {
  CONTACT_LIMITS,
  CONTACT_REDIRECTS,
  CONTACT_WORDS,
  LIMITABLE_PHRASE,
} from './tables/contact-limits.ts';
import { OPT_IN_KEYWORDS, PROVIDER_OPT_OUT_KEYWORDS } from './tables/opt-in-keywords.ts';
import { NEGATIONS, OPT_OUT_KEYWORDS, OPT_OUT_PHRASES } from './tables/revocation-phrases.ts';

/**
 * How a reply revoked consent: by a keyword (the whole reply, "STOP", "ALTO") or by a phrase within
 * it ("please stop texting me", "número equivocado").
 */
export type Revocation =
  | { by: 'keyword'; keyword: string; language: 'en' | 'es' }
  | { by: 'words'; phrase: string; language: 'en' | 'es' };

/**
 * Lower case, accents and apostrophes dropped (so "don’t" and "dont", "envíes" and "envies" are
 * one), every other sign a space, spaces single. Pure.
 */
export function normalizeReply(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const KEYWORDS = new Map(OPT_OUT_KEYWORDS.map((k) => [normalizeReply(k.keyword), k]));
const PHRASES = OPT_OUT_PHRASES.map((p) => ({ ...p, words: ` ${normalizeReply(p.phrase)} ` }));
const NEGATED = NEGATIONS.map((n) => ` ${n} `);

/**
 * What a reply says of consent: an opt-out, a limit on when or how to be contacted, or neither; a
 * plain reply that is an opt-in keyword alone (`opt_in`: START, UNSTOP, YES) asks for texts again.
 */
export type ReplyReading =
  | { intent: 'opt_out'; revocation: Revocation }
  | { intent: 'contact_limits'; limit: string }
  | { intent: 'reply'; opt_in?: string };

const OPT_IN = new Map(OPT_IN_KEYWORDS.map((k) => [normalizeReply(k), k]));
const PROVIDER_KEYWORDS = new Set(PROVIDER_OPT_OUT_KEYWORDS.map(normalizeReply));

/**
 * Whether the provider answered this text itself, as Twilio does a single opt-out keyword
 * (tables/opt-in-keywords.ts): then the prospect has its confirmation already. Pure.
 */
export const providerAnswers = (text: string): boolean => PROVIDER_KEYWORDS.has(normalizeReply(text));

const wholeWords = (patterns: readonly string[]) =>
  new RegExp(`(?:^| )(?:${patterns.map((p) => `(?:${p})`).join('|')})(?= |$)`);
const LIMIT = wholeWords(CONTACT_LIMITS);
const REDIRECT = wholeWords(CONTACT_REDIRECTS);
const CONTACT = wholeWords(CONTACT_WORDS);
const CLAUSES = /[.,;:!?¡¿\n]+/;

/**
 * How a prospect's text reads (docs/conversations.md, "Revocation"). An opt-out keyword as the
 * whole reply or a whole clause revokes; so does an opt-out phrase anywhere in a clause, unless a
 * negation comes right before it ("don't stop texting me") or, for a phrase about a channel
 * ("dont call", "stop texting"), the clause also limits when or how ("don't call me before 5") or
 * the reply sends the contact elsewhere ("don't call, text me instead"): that only narrows the
 * consent. Any clause that
 * revokes wins over others that limit. A reply with no opt-out whose clause asks for contact with a
 * limit ("call me after 5pm", "not before noon") is `contact_limits`; anything else a plain reply.
 * Pure; the tables: tables/revocation-phrases.ts and tables/contact-limits.ts.
 */
export function readReply(text: string): ReplyReading {
  for (const part of [text, ...text.split(CLAUSES)]) {
    const keyword = KEYWORDS.get(normalizeReply(part));
    if (keyword)
      return {
        intent: 'opt_out',
        revocation: { by: 'keyword', keyword: keyword.keyword, language: keyword.language },
      };
  }
  let limit: string | null = null;
  const redirect = REDIRECT.exec(normalizeReply(text))?.[0].trim() ?? null;
  for (const part of text.split(CLAUSES)) {
    const words = normalizeReply(part);
    const clause = ` ${words} `;
    const limited = LIMIT.exec(words)?.[0].trim() ?? redirect;
    for (const p of PHRASES) {
      const at = clause.indexOf(p.words);
      if (at < 0) continue;
      const before = clause.slice(0, at + 1);
      if (NEGATED.some((n) => before.endsWith(n))) continue;
      if (limited && LIMITABLE_PHRASE.test(p.words.trim())) continue;
      return { intent: 'opt_out', revocation: { by: 'words', phrase: p.phrase, language: p.language } };
    }
    if (limited && (CONTACT.test(words) || limited === redirect)) limit ??= limited;
  }
  if (limit) return { intent: 'contact_limits', limit };
  const optIn = OPT_IN.get(normalizeReply(text));
  return optIn ? { intent: 'reply', opt_in: optIn } : { intent: 'reply' };
}

/** Whether an inbound text revokes consent, and how; null when it does not (see `readReply`). */
export function revocation(text: string): Revocation | null {
  const read = readReply(text);
  return read.intent === 'opt_out' ? read.revocation : null;
}
