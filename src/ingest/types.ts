import type { JsonObject, JsonValue } from '../json.ts';

/** A flag raised on one field: the lead is still created, the raw value kept in custom_fields. */
export interface FieldWarning {
  field: string;
  code: string;
  message: string;
}

/** Canonical lead fields by their names (docs/sender-contract.md); only fields that were sent (and valid) are present. */
export type LeadFields = Record<string, string | number | boolean | string[]>;

export interface MappedSubmission {
  /** Canonical fields, normalized. Always has `name` when the submission named the contact. */
  lead: LeadFields;
  /** Unknown fields, losing aliases, invalid raw values and the sender's own custom_fields. */
  custom_fields: JsonObject;
  warnings: FieldWarning[];
  /** The body key each canonical field was taken from (`cell` for phone), to keep raw values under it. */
  origins: Record<string, string>;
  /** Control fields of the request itself, never stored on the lead. */
  control: { listen: boolean; idempotency_key: JsonValue | undefined };
  /** How the body was read: `flat`, `field_list`, or a named adapter (`meta_lead_ads`, `typeform` …). */
  format: string;
}
