/**
 * How a questionnaire question is classified, as data (docs/booking-events.md shows this table and
 * a unit test keeps the two equal). Edit the lists here, not the code in questionnaire.ts.
 *
 * Keyword rules: matched case-insensitively against the question text at word boundaries; a
 * trailing `*` matches any word start (`smok*` → smoke, smoker, smoking); spaces match any run of
 * whitespace. The classes are tried in the order of QUESTION_CLASS_ORDER; the first match wins,
 * and a question that matches none is an open prompt.
 */
export const QUESTION_CLASSES = {
  /**
   * Questions asking for a phone number: the answer is promoted to the lead's phone and never
   * shown in the notes. "text" alone is not here: "Can we text you?" asks for
   * consent, not a number; only the phrases that ask for a number to text are.
   */
  phone: [
    // the usual words for the number itself
    'phone*',
    'cell',
    'cellphone',
    'mobile',
    // phrases of scheduling tools' default "how do we reach you" questions
    'number to reach',
    'best number',
    'contact number',
    'callback number',
    'call back number',
    'number to text',
    'texting number',
    'text number',
  ],
  /**
   * Underwriting questions: a "No" or "None" here is information an underwriter needs (no
   * tobacco, no existing policy), so it is kept.
   */
  underwriting: [
    // existing coverage: replacement rules and the sales conversation depend on it
    'coverage',
    'insur*',
    'policy',
    'policies',
    // general health
    'health',
    'medical',
    'condition*',
    // tobacco: smoker and non-smoker rates differ
    'tobacco',
    'smok*',
    'nicotine',
    'vape',
    'vaping',
    // prescriptions: the underwriter's prescription check
    'medication*',
    'meds',
    'prescri*',
    // hospital stays and operations
    'hospital*',
    'surger*',
    'surgical',
    // conditions that decide between level, graded and guaranteed-issue products
    'diabet*',
    'insulin',
    'cancer*',
    'heart',
    'cardiac',
    'stroke*',
    'copd',
    'oxygen',
    // driving and criminal history
    'dui',
    'dwi',
    'felon*',
    'convict*',
    // build chart
    'height',
    'weigh*',
    'tall',
    // who the policy is for
    'beneficiar*',
  ],
  /**
   * Contact permission: a "No" to "May we text you?" is a refusal the agent must honour, so it is
   * kept like an underwriting answer.
   */
  consent: ['sms', 'text me', 'text you', 'text message*', 'consent*', 'opt in', 'opt-in', 'permission'],
} as const satisfies Record<string, readonly string[]>;

export type KeywordClass = keyof typeof QUESTION_CLASSES;
export type QuestionClass = KeywordClass | 'open';

/** Phone first: a question asking for a number never reaches the notes, whatever else it mentions. */
export const QUESTION_CLASS_ORDER: readonly KeywordClass[] = ['phone', 'underwriting', 'consent'];

/**
 * Answers that say nothing to an open prompt and are dropped from the notes. Compared
 * trimmed, case-insensitively, with trailing punctuation (`.`, `!`, `?`, `,`, `;`, `:`) ignored.
 */
export const EMPTY_OPEN_ANSWERS: readonly string[] = ['', 'no', 'none', 'n/a', 'na', '-', 'nothing'];
