import { DateTime } from 'luxon';

/**
 * Formatters per zone, made once: a page of a few hundred times would otherwise build an
 * Intl.DateTimeFormat for each (most of a week agenda's server time).
 */
const formatters = new Map<string, { when: Intl.DateTimeFormat; clock: Intl.DateTimeFormat }>();

function formatter(zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    const common = { timeZone: zone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' } as const;
    f = {
      when: new Intl.DateTimeFormat('en-US', {
        ...common,
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        year: 'numeric',
      }),
      clock: new Intl.DateTimeFormat('en-US', common),
    };
    if (formatters.size > 500) formatters.clear();
    formatters.set(zone, f);
  }
  return f;
}

/** An instant in a zone, always with the zone: "Mon, Mar 15, 2027, 10:00 AM CDT". */
export function when(isoInstant: string | null | undefined, zone: string): string {
  if (!isoInstant) return '—';
  const t = new Date(isoInstant);
  return Number.isNaN(t.getTime()) ? isoInstant : formatter(zone).when.format(t);
}

/** The time of day only, with the zone: "10:00 AM CDT". */
export function clock(isoInstant: string, zone: string): string {
  return formatter(zone).clock.format(new Date(isoInstant));
}

/** The instant's calendar day in the zone, `YYYY-MM-DD`. */
export function localDay(isoInstant: string, zone: string): string {
  return DateTime.fromISO(isoInstant, { zone: 'utc' }).setZone(zone).toISODate() ?? '';
}

const LABELS: Record<string, string> = {
  zipcode: 'ZIP code',
  date_of_birth: 'Date of birth',
  ip_address: 'IP address',
  sms_consent: 'SMS consent',
  scheduled_at: 'Appointment at',
  setter_dialer_name: 'Setter / dialer',
  socialclid: 'Social click id',
  socialc: 'Social campaign',
  socialp: 'Social placement',
  leadgen_id: 'Lead-gen form id',
  ad_id: 'Ad id',
  consent_cert_url: 'Consent certificate URL',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  utm_content: 'UTM content',
  utm_term: 'UTM term',
  lead_category: 'Category',
  sms_reply: 'Text from the prospect',
  sms_opt_out: 'Opted out',
  sms_opt_in: 'Texts resumed (START)',
};

/** A field's human label: `date_of_birth` → "Date of birth", with the table's exceptions. */
export function label(field: string): string {
  const known = LABELS[field];
  if (known) return known;
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A phone as people read it: the ten digits stored for a US number as `(305) 555-0147`; anything
 * else (an international number, a raw value) as stored.
 */
export function phone(value: string | null | undefined): string {
  if (!value) return '—';
  const digits = /^1?(\d{3})(\d{3})(\d{4})$/.exec(value);
  return digits ? `(${digits[1]}) ${digits[2]}-${digits[3]}` : value;
}

/** A lead field's value as text: a phone as people read it, the rest as `show` gives it. */
export function fieldText(field: string, value: unknown): string {
  return field === 'phone' && typeof value === 'string' ? phone(value) : show(value);
}

/** A stored value as text: lists joined, booleans as yes/no, objects as JSON. */
export function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(show).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number);
}

/** What became of a text, in words that do not claim a text went out when none did. */
export function textStatus(status: string, provider: string | null | undefined): string {
  return status === 'sent' && provider === 'recorder' ? RECORDED : status;
}

/** A text the default provider kept: nothing reached the prospect's phone. */
export const RECORDED = 'recorded (SMS_PROVIDER=recorder: nothing sent)';
