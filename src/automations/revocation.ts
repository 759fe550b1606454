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
 * Whether an inbound text revokes consent, and how; null when it does not. A keyword must be the
 * whole reply or a whole clause ("Thanks. STOP"); a phrase may stand anywhere in a clause. Each
 * clause (split at . , ; : ! ? and line ends) is read on its own, so "No, stop texting me" is an
 * opt-out and "don't stop texting me" is not. Pure; the tables and where they come from: tables/revocation-phrases.ts.
 */
export function revocation(text: string): Revocation | null {
  for (const part of [text, ...text.split(/[.,;:!?¡¿\n]+/)]) {
    const keyword = KEYWORDS.get(normalizeReply(part));
    if (keyword) return { by: 'keyword', keyword: keyword.keyword, language: keyword.language };
  }
  for (const part of text.split(/[.,;:!?¡¿\n]+/)) {
    const clause = ` ${normalizeReply(part)} `;
    for (const p of PHRASES) {
      const at = clause.indexOf(p.words);
      if (at < 0) continue;
      const before = clause.slice(0, at + 1);
      if (NEGATED.some((n) => before.endsWith(n))) continue;
      return { by: 'words', phrase: p.phrase, language: p.language };
    }
  }
  return null;
}
