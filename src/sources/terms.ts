// A source's terms as a delivery reads them: what its leads cost, when a repeat is billed again,
// which leads it may deliver and how many (migrations/0024-lead-economics.sql).

/** Which leads a source may deliver; a rule left out is no rule. */
export interface AcceptRules {
  /** Two-letter codes; a lead in another state is refused, one without a state passes. */
  states?: string[];
  min_age?: number;
  max_age?: number;
  /** A lead must carry `consent_cert_url` or `consent_token`. */
  require_consent?: boolean;
}

/** Accepted live deliveries per calendar day and month; a cap left out is no cap. */
export interface Caps {
  daily?: number;
  monthly?: number;
}

/** What a live delivery needs of its source's terms. */
export interface DeliveryTerms {
  price_cents: number;
  /** A repeat contact within this many days of the source's last billed delivery is not billed; 0: every one is. */
  duplicate_days: number;
  accept: AcceptRules;
  caps: Caps;
  /** The zone caps count days and months in: the agency's for an agency's source, else the agent's. */
  timezone: string;
}

/** Whether a source counts its deliveries against a cap: then each is written in the transaction. */
export function hasCaps(terms: Pick<DeliveryTerms, 'caps'>): boolean {
  return terms.caps.daily !== undefined || terms.caps.monthly !== undefined;
}
