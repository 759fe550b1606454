import { defineOwn, type JsonObject, type JsonValue } from '../json.ts';
import type { LeadFields } from '../ingest/types.ts';
import { statusAfterResubmit, type LeadStatus } from './lead-status.ts';

export interface StoredLead {
  lead_id: string;
  status: LeadStatus;
  fields: LeadFields;
  custom_fields: JsonObject;
}

export interface FieldChange {
  from: JsonValue;
  to: JsonValue;
}

export interface MergeResult {
  fields: LeadFields;
  custom_fields: JsonObject;
  status: LeadStatus;
  /** Every field whose value changed, old and new: the history entry of the merge. */
  changes: Record<string, FieldChange>;
}

/**
 * A repeat delivery merged into the stored lead. Pure. Non-empty incoming values overwrite (the
 * old value goes to `changes`), empty ones never erase; tags are united; notes are appended under
 * a dated separator; custom_fields merge key by key.
 */
export function mergeLead(
  stored: StoredLead,
  incoming: { fields: LeadFields; custom_fields: JsonObject; hasAppointment: boolean },
  today: string,
): MergeResult {
  const fields: LeadFields = { ...stored.fields };
  const changes: Record<string, FieldChange> = {};
  const set = (field: string, value: LeadFields[string]) => {
    const before = fields[field];
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(value)) return;
    changes[field] = { from: before ?? null, to: value };
    fields[field] = value;
  };

  for (const [field, value] of Object.entries(incoming.fields)) {
    if (isEmpty(value)) continue;
    if (field === 'tags' && Array.isArray(value)) set('tags', unite(asTags(fields.tags), value));
    else if (field === 'notes' && typeof value === 'string')
      set('notes', appendNote(fields.notes, value, today));
    else set(field, value);
  }

  const custom: JsonObject = {};
  for (const key of Object.keys(stored.custom_fields))
    defineOwn(custom, key, stored.custom_fields[key] as JsonValue);
  for (const key of Object.keys(incoming.custom_fields)) {
    const value = incoming.custom_fields[key] as JsonValue;
    if (isEmpty(value)) continue;
    const before = Object.hasOwn(custom, key) ? custom[key] : undefined;
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(value)) continue;
    defineOwn(changes as Record<string, FieldChange>, `custom_fields.${key}`, {
      from: before ?? null,
      to: value,
    });
    defineOwn(custom, key, value);
  }

  return {
    fields,
    custom_fields: custom,
    status: statusAfterResubmit(stored.status, incoming.hasAppointment),
    changes,
  };
}

function isEmpty(value: JsonValue | LeadFields[string] | undefined): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function asTags(value: LeadFields[string] | undefined): string[] {
  return Array.isArray(value) ? value : [];
}

function unite(existing: string[], incoming: string[]): string[] {
  const seen = new Set(existing.map((t) => t.toLowerCase()));
  const out = [...existing];
  for (const tag of incoming) {
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

function appendNote(existing: LeadFields[string] | undefined, note: string, today: string): string {
  if (typeof existing !== 'string' || existing.trim() === '') return note;
  if (existing === note || existing.endsWith(`\n${note}`)) return existing;
  return `${existing}\n\n--- ${today} ---\n${note}`;
}
