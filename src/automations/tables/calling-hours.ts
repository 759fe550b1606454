/**
 * When a prospect may get an automated contact (a text), in the prospect's own time zone: the
 * federal window, and the stricter state rules. Data, not code: add a row with its source.
 * Keys are two-letter state codes. `maxPer24h` caps automated contacts to one number in 24 hours.
 */
export interface ContactRule {
  /** Local time the window opens, `HH:MM`, inclusive. */
  start: string;
  /** Local time the window closes, `HH:MM`, exclusive. */
  end: string;
  maxPer24h: number | null;
  source: string;
}

export const FEDERAL_RULE: ContactRule = {
  start: '08:00',
  end: '21:00',
  maxPer24h: null,
  source:
    'TCPA, 47 U.S.C. § 227; FCC rule 47 CFR § 64.1200(c)(1): no solicitation before 8 a.m. or after 9 p.m. local time',
};

export const STATE_RULES: Record<string, ContactRule> = {
  FL: {
    start: '08:00',
    end: '20:00',
    maxPer24h: 3,
    source:
      'Florida Telephone Solicitation Act, Fla. Stat. § 501.059(8)(a): 8 a.m.–8 p.m., at most 3 calls or texts on one subject in 24 hours',
  },
  OK: {
    start: '08:00',
    end: '20:00',
    maxPer24h: 3,
    source:
      'Oklahoma Telephone Solicitation Act of 2022, 15 O.S. § 775C.4: 8 a.m.–8 p.m., at most 3 calls or texts on one subject in 24 hours',
  },
  MD: {
    start: '08:00',
    end: '20:00',
    maxPer24h: 3,
    source:
      'Maryland Stop the Spam Calls Act of 2023, Md. Code, Com. Law § 14-4503: 8 a.m.–8 p.m., at most 3 calls or texts on one subject in 24 hours',
  },
  WA: {
    start: '08:00',
    end: '20:00',
    maxPer24h: null,
    source: 'Washington, RCW 80.36.390(2): telephone solicitation only between 8 a.m. and 8 p.m.',
  },
};
