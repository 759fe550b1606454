import { Type } from 'typebox';
import { LIMITS } from '../../limits.ts';
import { RETURN_DECISIONS, RETURN_REASONS } from '../../economics/return-rules.ts';
import { LEAD_STATUSES } from '../../leads/lead-status.ts';
import { Enum, Nullable, Text, Timestamp, Uuid, UuidParam } from './common.ts';

/** Returns, sales and the per-source report (docs/economics.md). */

export const ReturnBody = Type.Object({
  reason: Enum(RETURN_REASONS, 'Why the lead goes back to its vendor.'),
  note: Type.Optional(Text(LIMITS.noteMaxLength, 'What the agent tells the vendor, if anything.')),
});

export const ReturnParams = Type.Object({
  return_id: UuidParam('The return. Not a UUID or unknown: 404 RETURN_NOT_FOUND.'),
});

export const DecideReturnBody = Type.Object({
  status: Enum(RETURN_DECISIONS, 'What the vendor answered: credited (spend goes down) or denied.'),
});

export const Return = Type.Object({
  return_id: Uuid(),
  lead_id: Uuid(),
  source_id: Uuid('The source of the purchase returned: the lead’s latest billable one.'),
  reason: Enum(RETURN_REASONS),
  note: Nullable(Type.String()),
  status: Enum(['requested', ...RETURN_DECISIONS] as const),
  price_cents: Type.Integer({ description: 'What the purchase cost: what a credit gives back.' }),
  evidence: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'Gathered when the return is made: `dial_attempts` and `calls` [{at, outcome}] always; `phone` (disconnected, wrong_number), `earlier` {source_id, delivered_at} (duplicate), `state` (out_of_area), `age` (age).',
  }),
  created_at: Timestamp(),
  decided_at: Nullable(Timestamp()),
});

export const SaleBody = Type.Object({
  premium_cents: Type.Integer({
    minimum: 0,
    maximum: LIMITS.premiumMaxCents,
    description: 'The policy’s premium, in cents.',
  }),
  product: Type.Optional(Text(LIMITS.nameMaxLength, 'What was sold, e.g. "Term life 20".')),
  sold_at: Type.Optional(
    Timestamp(`When it was sold: from ${LIMITS.saleEarliest.slice(0, 10)} to now. Default: now.`),
  ),
});

/** A sale as it is kept: what the lead's read lists. */
export const LeadSale = Type.Object({
  sale_id: Uuid(),
  lead_id: Uuid(),
  source_id: Uuid('The lead’s source, which the sale counts for.'),
  premium_cents: Type.Integer(),
  product: Nullable(Type.String()),
  sold_at: Timestamp(),
  created_at: Timestamp('When it was recorded.'),
});

const { created_at: recordedAt, ...saleProperties } = LeadSale.properties;
export const Sale = Type.Object({
  ...saleProperties,
  status: Enum(LEAD_STATUSES, 'The lead’s status after the sale: Sold.'),
  status_from: Enum(LEAD_STATUSES, 'Its status before.'),
  created_at: recordedAt,
});

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Cents = (description: string) => Nullable(Type.Integer(), { description });
const Minutes = (description: string) => Nullable(Type.Number(), { description });

export const ReportRow = Type.Object({
  source_id: Nullable(Uuid(), { description: 'null in `totals`.' }),
  name: Nullable(Type.String(), { description: 'The source’s name; null in `totals`.' }),
  deliveries: Count('Accepted live deliveries in the period.'),
  billable: Count('Of those, the ones the vendor may bill.'),
  returned: Count('Of those, the ones returned (any outcome).'),
  credited: Count('Of those, the returns the vendor credited.'),
  spend_cents: Type.Integer({ description: 'Prices of the billable deliveries less the credited returns.' }),
  contacted: Count('Leads delivered in the period with a `reached` call outcome.'),
  appointments: Count('Leads delivered in the period that got an appointment.'),
  sales: Count('Sales of the leads delivered in the period.'),
  premium_cents: Type.Integer({ description: 'Their premiums.' }),
  cost_per_lead_cents: Cents('spend / (billable − credited); null when that is 0.'),
  cost_per_appointment_cents: Cents('spend / appointments; null when 0.'),
  cost_per_sale_cents: Cents('spend / sales; null when 0.'),
  return_rate: Nullable(Type.Number(), { description: 'returned / billable, to 4 places; null when 0.' }),
  first_text_minutes_p50: Minutes('Minutes from delivery to the first text sent: median.'),
  first_text_minutes_p90: Minutes('The same, 90th percentile.'),
  first_call_minutes_p50: Minutes('Minutes from delivery to the first call outcome: median.'),
  first_call_minutes_p90: Minutes('The same, 90th percentile.'),
});

export const Report = Type.Object({
  from: Timestamp('Inclusive.'),
  to: Timestamp('Exclusive.'),
  sources: Type.Array(ReportRow),
  totals: ReportRow,
});

export const ReportQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      description: `ISO-8601 instant, inclusive. Default: ${LIMITS.reportDefaultDays} days before \`to\`.`,
      examples: ['2027-01-01T00:00:00Z'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      description: `ISO-8601 instant, exclusive. Default: now. At most ${LIMITS.reportMaxDays} days after \`from\`.`,
      examples: ['2027-02-01T00:00:00Z'],
    }),
  ),
  format: Type.Optional(
    Enum(['json', 'csv'] as const, 'csv: `text/csv`, a header line and one line per source (no totals).'),
  ),
});
