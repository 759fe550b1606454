import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../errors.ts';
import { rejected, toAnswer, type DeliveredLead, type DeliveryResult } from './result.ts';

const LEAD: DeliveredLead = {
  lead_id: 'L1',
  agent_id: 'A1',
  status: 'New',
  appointment: null,
  auto_sync_enabled: false,
  warnings: [],
};
const APPOINTMENT = {
  scheduled_at: '2027-01-15T19:30:00.000Z',
  appointment_timezone: 'America/Chicago',
  schedule_type: 'appointment' as const,
};
const WARNING = { field: 'age', code: 'INVALID_AGE', message: 'Expected 18 to 120' };

/** The answer as the sender reads it: status, headers, and the body text byte for byte. */
function wire(result: DeliveryResult): string {
  const answer = toAnswer(result);
  return `${answer.status} ${JSON.stringify(answer.headers)} ${JSON.stringify(answer.body)}`;
}

describe('toAnswer: every result, as the sender receives it', () => {
  it.each<[string, DeliveryResult, string]>([
    [
      'a created lead',
      { kind: 'created', lead: LEAD },
      '200 {} {"success":true,"message":"Lead created","listen":false,"lead_id":"L1","agent_id":"A1","status":"New","auto_sync_enabled":false}',
    ],
    [
      'a created lead with an appointment and a warning',
      {
        kind: 'created',
        lead: { ...LEAD, status: 'Scheduled', appointment: APPOINTMENT, warnings: [WARNING] },
      },
      '200 {} {"success":true,"message":"Lead created and appointment scheduled","listen":false,"lead_id":"L1","agent_id":"A1","status":"Scheduled","scheduled_at":"2027-01-15T19:30:00.000Z","appointment_timezone":"America/Chicago","schedule_type":"appointment","auto_sync_enabled":false,"warnings":[{"field":"age","code":"INVALID_AGE","message":"Expected 18 to 120"}]}',
    ],
    [
      'a merged lead with an appointment',
      {
        kind: 'merged',
        lead: { ...LEAD, status: 'Scheduled', appointment: APPOINTMENT, auto_sync_enabled: true },
      },
      '200 {} {"success":true,"message":"Lead updated","listen":false,"lead_id":"L1","agent_id":"A1","status":"Scheduled","scheduled_at":"2027-01-15T19:30:00.000Z","appointment_timezone":"America/Chicago","schedule_type":"appointment","resubmit":true,"auto_sync_enabled":true}',
    ],
    [
      'a scheduler cancel that created the lead',
      { kind: 'created', lead: { ...LEAD, status: 'Canceled', closed: 'canceled' } },
      '200 {} {"success":true,"message":"Appointment canceled","listen":false,"lead_id":"L1","agent_id":"A1","status":"Canceled","auto_sync_enabled":false}',
    ],
    [
      'a scheduler reschedule merged into the lead',
      { kind: 'merged', lead: { ...LEAD, status: 'Scheduled', closed: 'rescheduled' } },
      '200 {} {"success":true,"message":"Appointment rescheduled","listen":false,"lead_id":"L1","agent_id":"A1","status":"Scheduled","resubmit":true,"auto_sync_enabled":false}',
    ],
    [
      'a replay (the stored answer, as stored, with idempotent_replay last)',
      {
        kind: 'replayed',
        answer: { listen: false, status: 'New', lead_id: 'L1', success: true },
        sameBody: false,
      },
      '200 {} {"listen":false,"status":"New","lead_id":"L1","success":true,"idempotent_replay":true}',
    ],
    [
      'a Listen sample',
      { kind: 'listened' },
      '200 {} {"success":true,"listen":true,"message":"Sample received for mapping. Check the lead source in the app."}',
    ],
    [
      'a no-show marked',
      { kind: 'no_show', marked: true, lead_id: 'L1', agent_id: 'A1', status: 'Scheduled' },
      '200 {} {"success":true,"message":"Appointment marked no-show","listen":false,"lead_id":"L1","agent_id":"A1","status":"Scheduled"}',
    ],
    [
      'a no-show removed',
      { kind: 'no_show', marked: false, lead_id: 'L1', agent_id: 'A1', status: 'Scheduled' },
      '200 {} {"success":true,"message":"No-show removed","listen":false,"lead_id":"L1","agent_id":"A1","status":"Scheduled"}',
    ],
    [
      'an ignored event',
      { kind: 'ignored' },
      '200 {} {"success":true,"message":"Event ignored","ignored":true}',
    ],
    [
      'a wrong method',
      rejected('METHOD_NOT_ALLOWED'),
      '405 {"allow":"POST"} {"error":"Method not allowed","error_code":"METHOD_NOT_ALLOWED"}',
    ],
    [
      'a rate-limited sender',
      rejected('RATE_LIMITED', 'retry in 3 s', { retryAfterSeconds: 3 }),
      '429 {"retry-after":"3"} {"error":"Too many requests","error_code":"RATE_LIMITED","details":"retry in 3 s"}',
    ],
    [
      'a database failure (the cause is never shown)',
      rejected('SERVER_ERROR', undefined, { cause: new Error('connect ECONNREFUSED 10.0.0.5:5432') }),
      '500 {} {"error":"Internal server error","error_code":"SERVER_ERROR"}',
    ],
  ])('When the result is %s, then the answer is exact', (_label, result, expected) => {
    expect(wire(result)).toBe(expected);
  });

  it.each(Object.keys(ERRORS) as ErrorCode[])(
    'When %s is the refusal, then its status and text come from the error table',
    (code) => {
      const answer = toAnswer(rejected(code, 'why'));
      expect(answer.status).toBe(ERRORS[code].status);
      expect(answer.body).toEqual({ error: ERRORS[code].error, error_code: code, details: 'why' });
    },
  );
});
