import type { FieldWarning, LeadFields } from '../ingest/types.ts';

/**
 * A lead field as trimmed text, or undefined when absent or blank. Numbers are read as text (a
 * ZIP sent as a JSON number is still a ZIP); other shapes come back as text too, so a bad value
 * is rejected and kept raw rather than silently ignored.
 */
export function leadText(lead: LeadFields, field: string): string | undefined {
  if (!Object.hasOwn(lead, field)) return undefined;
  const value = lead[field];
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value.join(', ') : String(value)).trim();
  return text === '' ? undefined : text;
}

/** What the resolution could not use: warnings for the response, raw values for custom_fields. */
export class FieldIssues {
  readonly warnings: FieldWarning[] = [];
  readonly rejected: Record<string, string> = {};

  warn(field: string, code: string, message: string): void {
    this.warnings.push({ field, code, message });
  }

  /** The value is not used: keep it raw so nothing the sender sent is lost. */
  reject(field: string, raw: string, code: string, message: string): void {
    this.keepRaw(field, raw);
    this.warn(field, code, message);
  }

  /** Unused for want of its partner (a date without a usable time), explained by that one's warning. */
  keepRaw(field: string, raw: string): void {
    this.rejected[field] = raw;
  }
}
