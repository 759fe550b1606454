/**
 * The keywords that ask for texts again after an opt-out, when they are the whole message: START,
 * UNSTOP and YES, which carriers and Twilio honour (CTIA Messaging Principles and Best Practices;
 * Twilio, "Twilio support for opt-out keywords (SMS STOP filtering)": START, YES and UNSTOP opt a
 * number back in; toll-free numbers answer UNSTOP and START). Data: add a row, and a case to
 * `revocation.test.ts`.
 */
export const OPT_IN_KEYWORDS: readonly string[] = ['START', 'UNSTOP', 'YES'];

/**
 * The opt-out keywords Twilio answers itself, with its own confirmation, on long codes and
 * toll-free numbers (same source): single-word messages only ("STOP PLEASE" is passed on, not
 * answered). Under `SMS_OPT_OUT_CONFIRMATION=provider` these get no confirmation of ours; any other
 * opt-out, which the provider let through, gets ours.
 */
export const PROVIDER_OPT_OUT_KEYWORDS: readonly string[] = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
];
