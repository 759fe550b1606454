// The body every bench sends: a lead as a Facebook lead-ads vendor would post it.

/** A realistic lead of about 1.4 KB; `n` makes the contact (phone, email) new. */
export function lead(run: string, n: number): Record<string, unknown> {
  return {
    first_name: 'Bench',
    last_name: `Lead ${run}-${n}`,
    phone: `214${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`,
    email: `bench.${run}.${n}@example.com`,
    address: '1200 Main St',
    city: 'Dallas',
    state: 'TX',
    zipcode: '75201',
    date_of_birth: '05/01/1964',
    gender: 'F',
    lead_category: 'FE',
    coverage_type: 'Final expense',
    coverage_amount: '15000',
    monthly_budget: '60',
    smoker: 'no',
    sms_consent: 'yes',
    consent_cert_url: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
    ip_address: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    utm_source: 'facebook',
    utm_medium: 'paid',
    utm_campaign: 'fe-spring',
    utm_content: 'carousel-2',
    utm_term: 'burial insurance',
    leadgen_id: `120394857${n}`,
    ad_id: '23851234567890123',
    campaign_name: 'FE Texas Spring',
    beneficiary: 'Spouse',
    occupation: 'Retired teacher',
    tags: ['facebook', 'final-expense'],
    notes: 'Wants a quote for her husband too. Best time to call is after 5 pm; prefers text first.',
    custom_fields: { vendor_ref: `A-${n}`, page_url: 'https://quotes.example.com/final-expense?v=b' },
  };
}
