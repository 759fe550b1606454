import { IANAZone } from 'luxon';
import { appError } from '../errors.ts';

/** An IANA zone in its canonical spelling (`america/chicago` → `America/Chicago`), or a 400. */
export function zoneOf(typed: string): string {
  const timezone = typed.trim();
  if (!IANAZone.isValidZone(timezone)) {
    throw appError('VALIDATION_ERROR', 'timezone must be an IANA time zone such as America/Chicago');
  }
  return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
}
