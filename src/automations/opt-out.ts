/** The words that opt a number out of texts (the carriers' standard list), any case, around spaces. */
export const OPT_OUT_WORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPT OUT',
] as const;

/** The opt-out word a reply is, or null: the whole message must be the word. Pure. */
export function optOutWord(message: string): string | null {
  const normalized = message
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[.!]+$/, '')
    .toUpperCase();
  return (OPT_OUT_WORDS as readonly string[]).includes(normalized) ? normalized : null;
}
