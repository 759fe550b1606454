/**
 * Words that limit when or how a prospect may be contacted without revoking consent: "don't call me
 * at work, text instead", "not before noon", "no me llames antes de las 5". The FCC's 2024 order
 * has revocation honoured by any reasonable means, but a reply that narrows the contact ("call me
 * after 5") keeps the consent it narrows; the CTIA Messaging Principles read a STOP the same way
 * only when it is not qualified. Such a reply reaches the agent as "asks about when to contact" and
 * holds the automatic texts until the agent reads it. Data, not code: add a row, and a case each
 * way to `revocation.test.ts`.
 *
 * Each entry is a regular expression over the normalized reply (lower case, no accents or
 * apostrophes, punctuation as spaces: see `normalizeReply`), matched on whole words.
 */

/** A time of day or of the week, as a limit's object: "5", "5pm", "5 30 p m", "noon", "work", "friday". */
const WHEN = [
  String.raw`\d{1,2}(?: ?\d{2})?(?: ?(?:am|pm|a m|p m|oclock))?`,
  'noon|midday|midnight|lunch|lunchtime|dinner|work|school|class|church|tomorrow|next week|the weekend',
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve',
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday',
  String.raw`(?:the |this )?(?:morning|afternoon|evening|night)`,
  String.raw`i (?:get (?:home|off|out)|am off|m off|finish)|im (?:off|home|out)`,
  // Spanish, after "antes de", "despues de", "hasta": "las 5", "la una", "mediodia", "el trabajo".
  String.raw`(?:las? )?\d{1,2}(?: ?\d{2})?(?: ?(?:am|pm))?|la una|mediodia|el trabajo|la tarde|la noche|la manana|manana`,
].join('|');

const CHANNEL = 'text|txt|call|email|message|phone|whatsapp';

/**
 * Words that send the contact to another channel: one anywhere in the reply makes its "don't call"
 * a limit ("Don't call, text me instead"), as the prospect still asks to be reached.
 */
export const CONTACT_REDIRECTS: readonly string[] = [
  `(?:${CHANNEL}) (?:me |us )?instead`,
  String.raw`instead of (?:calling|texting|a call|a text|calls|texts)`,
  `(?:only|just|please just|please only) (?:${CHANNEL})`,
  String.raw`(?:solo|mejor|nada mas) (?:por )?(?:mensaje|mensajes|texto|textos|correo|whatsapp|llamada|llamadas)`,
  String.raw`en vez de (?:llamar|llamarme|escribir|escribirme)`,
];

/** Words that narrow when or how: one anywhere in a clause makes its "don't call" a limit, not an opt-out. */
export const CONTACT_LIMITS: readonly string[] = [
  ...CONTACT_REDIRECTS,
  `(?:before|after|until|till|til|past|between|not before|not after) (?:${WHEN})`,
  String.raw`(?:at|around) \d{1,2}(?: ?\d{2})?(?: ?(?:am|pm|a m|p m|oclock))?`,
  String.raw`(?:at|from) (?:my )?(?:work|the office|the job|my job)`,
  String.raw`while (?:i am|im|i m) (?:at )?(?:work|working|driving|at the office)`,
  String.raw`during (?:the day|the week|work|business hours|work hours|working hours|the workday|school|the weekend|the daytime)`,
  String.raw`on (?:the )?(?:weekends?|weekdays|sundays|saturdays|mondays|tuesdays|wednesdays|thursdays|fridays)`,
  String.raw`(?:in the|this|early in the|late in the) (?:morning|afternoon|evening)`,
  String.raw`(?:at|late at|during the) night`,
  `(?:by|via|over) (?:${CHANNEL}|email|mail)`,
  String.raw`on (?:my )?(?:cell|mobile|work phone|home phone|other number)`,
  String.raw`(?:my )?(?:work|home|office|other) (?:number|phone)`,
  // Spanish.
  `(?:antes de|despues de|hasta|pasadas) (?:${WHEN})`,
  String.raw`en (?:el|mi) trabajo`,
  String.raw`(?:en|por|durante) la (?:manana|tarde|noche)`,
  String.raw`de noche|en horas? de trabajo|fines? de semana|el fin de semana`,
  String.raw`por (?:mensaje|texto|correo|whatsapp)`,
];

/**
 * Words that ask for or about contact, in a clause that has a limit: "call me after 5pm", "text me
 * instead", "llámame después de las 6" is a reply about when to contact, not a plain one.
 */
export const CONTACT_WORDS: readonly string[] = [
  String.raw`call(?:s|ing|ed)?|text(?:s|ing)?|txt|message|messages|messaging|email|contact|contacting|reach|ring|phone`,
  String.raw`llam\w*|escrib\w*|mensaje\w*|texto\w*|contact\w*|marca\w*`,
  // A clause that is only the limit: "not before noon", "only after 5", "after 6 please".
  String.raw`^(?:not|only|but|please|after|before|until|solo|despues|antes)\b`,
];

/**
 * The opt-out phrases (tables/revocation-phrases.ts) that a limit can narrow: those about a channel
 * ("dont call", "stop texting", "no me llames"). "remove me", "wrong number", "unsubscribe me" and
 * "never call me" stay opt-outs whatever follows them.
 */
export const LIMITABLE_PHRASE = /^(?:stop|dont|do not|quit|no more|no me|deja de|dejen de|deje de) /;
