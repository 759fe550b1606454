/**
 * Twilio's error codes on sending a text that no retry changes, from Twilio's error dictionary
 * (https://www.twilio.com/docs/api/errors). Any other refusal (429, 5xx, a code not listed) is tried
 * again, as a network failure is. Data, not code: add a row, and a case to test/twilio-errors.test.ts.
 */
export const TWILIO_FINAL_ERRORS: Readonly<Record<string, { words: string; optedOut?: true }>> = {
  '21211': { words: 'not a valid phone number' },
  '21408': { words: 'texts to this region are not enabled on the Twilio account' },
  '21606': { words: 'the sending number cannot send texts' },
  // The prospect answered STOP to this sender, and Twilio blocks it from then on: an opt-out.
  '21610': { words: 'the number unsubscribed from this sender (STOP)', optedOut: true },
  '21612': { words: 'Twilio cannot reach this number by text' },
  '21614': { words: 'not a mobile number' },
  '21660': { words: 'the sending number is not the Twilio account’s' },
};
