import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APPOINTMENT_STATUSES,
  isSuperseded,
  planAgenda,
  type AgendaEvent,
  type AgendaState,
  type AppointmentStatus,
} from './transitions.ts';

const BOOK: AgendaEvent = { kind: 'book' };
const CANCEL: AgendaEvent = { kind: 'cancel', as: 'canceled' };
const RESCHEDULE: AgendaEvent = { kind: 'cancel', as: 'rescheduled' };
const NO_SHOW: AgendaEvent = { kind: 'no_show' };
const NO_SHOW_REMOVED: AgendaEvent = { kind: 'no_show_removed' };

const AT = '2027-01-15T19:30:00.000Z';
const TIMES_NEW = '2027-02-05T18:30:00.000Z';
const incoming = { appointment_id: 'new', scheduled_at: AT, external_id: null };
const named = (status: AppointmentStatus) => ({ appointment_id: 'A', status });

describe('planAgenda: one event, every state of the appointment it names', () => {
  // [event, named status (null: never seen), expected changes, expected subject]
  it.each<[string, AgendaEvent, AppointmentStatus | null, string[], string | null]>([
    ['a booking never seen', BOOK, null, ['insert new booked'], 'new booked'],
    ...APPOINTMENT_STATUSES.map(
      (s) =>
        [`a booking already ${s}`, BOOK, s, [], `A ${s}`] as [
          string,
          AgendaEvent,
          AppointmentStatus,
          string[],
          string,
        ],
    ),
    ['a cancel never seen', CANCEL, null, ['insert new canceled'], 'new canceled'],
    ['a cancel of a booked one', CANCEL, 'booked', ['update A booked→canceled'], 'A canceled'],
    ['a cancel of a no-show', CANCEL, 'no_show', ['update A no_show→canceled'], 'A canceled'],
    ['a repeated cancel', CANCEL, 'canceled', [], 'A canceled'],
    ['a cancel of a rescheduled one', CANCEL, 'rescheduled', [], 'A rescheduled'],
    ['a reschedule never seen', RESCHEDULE, null, ['insert new rescheduled'], 'new rescheduled'],
    ['a reschedule of a booked one', RESCHEDULE, 'booked', ['update A booked→rescheduled'], 'A rescheduled'],
    ['a reschedule of a canceled one', RESCHEDULE, 'canceled', [], 'A canceled'],
    ['a repeated reschedule', RESCHEDULE, 'rescheduled', [], 'A rescheduled'],
    ['a no-show never seen', NO_SHOW, null, [], null],
    ['a no-show of a booked one', NO_SHOW, 'booked', ['update A booked→no_show'], 'A no_show'],
    ['a repeated no-show', NO_SHOW, 'no_show', [], 'A no_show'],
    ['a no-show of a canceled one', NO_SHOW, 'canceled', [], 'A canceled'],
    ['a no-show of a rescheduled one', NO_SHOW, 'rescheduled', [], 'A rescheduled'],
    ['a no-show removal never seen', NO_SHOW_REMOVED, null, [], null],
    ['a no-show removal', NO_SHOW_REMOVED, 'no_show', ['update A no_show→booked'], 'A booked'],
    ['a no-show removal of a booked one', NO_SHOW_REMOVED, 'booked', [], 'A booked'],
    ['a no-show removal of a canceled one', NO_SHOW_REMOVED, 'canceled', [], 'A canceled'],
  ])('When %s arrives, then the plan is as the table says', (_label, event, status, changes, subject) => {
    const noShow = event.kind === 'no_show' || event.kind === 'no_show_removed';
    const plan = planAgenda(event, {
      named: status ? named(status) : null,
      booked: [],
      incoming: noShow ? null : incoming,
    });
    expect(plan.changes.map(describeChange)).toEqual(changes);
    expect(plan.subject ? `${plan.subject.appointment_id} ${plan.subject.status}` : null).toBe(subject);
  });

  it('When a lead with a booking is sent a new time, then the old one is rescheduled and the new one booked', () => {
    const plan = planAgenda(BOOK, {
      named: null,
      booked: [{ appointment_id: 'old', scheduled_at: '2027-01-10T15:00:00.000Z', external_id: null }],
      incoming,
    });
    expect(plan.changes.map(describeChange)).toEqual(['update old booked→rescheduled', 'insert new booked']);
    expect(plan).toMatchObject({ subject: { appointment_id: 'new', status: 'booked' }, otherBooked: false });
    expect(plan.changes[1]).toMatchObject({ op: 'insert', continues: 'old' });
  });

  it('When the same time is sent again (in any spelling of the instant), then the booking is kept, not rescheduled', () => {
    const plan = planAgenda(BOOK, {
      named: null,
      booked: [{ appointment_id: 'old', scheduled_at: '2027-01-15T13:30:00-06:00', external_id: null }],
      incoming,
    });
    expect(plan).toEqual({
      changes: [],
      subject: { appointment_id: 'old', status: 'booked' },
      otherBooked: false,
    });
  });

  it('When a delivery books nothing (no time), then nothing changes', () => {
    expect(planAgenda(BOOK, { named: named('booked'), booked: [], incoming: null })).toEqual({
      changes: [],
      subject: null,
      otherBooked: false,
    });
  });

  it('When one invitee of a lead with two bookings cancels, then the other keeps the lead scheduled', () => {
    const booked = [
      { appointment_id: 'A', scheduled_at: AT, external_id: 'a' },
      { appointment_id: 'B', scheduled_at: '2027-02-01T15:00:00.000Z', external_id: 'b' },
    ];
    expect(planAgenda(CANCEL, { named: named('booked'), booked, incoming: null }).otherBooked).toBe(true);
    expect(
      planAgenda(CANCEL, { named: named('booked'), booked: booked.slice(0, 1), incoming: null }).otherBooked,
    ).toBe(false);
  });
});

describe('planAgenda: a scheduler booking that names the invitee it replaces (old_invitee)', () => {
  const fresh = { appointment_id: 'new', scheduled_at: TIMES_NEW, external_id: 'b' };
  const old = (status: AppointmentStatus) => ({ appointment_id: 'O', status });
  it.each<[AppointmentStatus, string[], string | undefined]>([
    ['booked', ['update O booked→rescheduled', 'insert new booked'], 'O'],
    ['no_show', ['update O no_show→rescheduled', 'insert new booked'], 'O'],
    ['rescheduled', ['insert new booked'], 'O'],
    ['canceled', ['insert new booked'], undefined],
  ])(
    'When the replaced appointment is %s, then the plan is as the table says',
    (status, changes, continues) => {
      const booked = status === 'booked' ? [{ appointment_id: 'O', scheduled_at: AT, external_id: 'a' }] : [];
      const plan = planAgenda(BOOK, { named: null, booked, incoming: fresh, replaced: old(status) });
      expect(plan.changes.map(describeChange)).toEqual(changes);
      // The calendar event (docs/calendar.md) moves with a rescheduled meeting, not with a canceled one.
      expect(plan.changes.find((c) => c.op === 'insert')).toEqual(
        continues
          ? { op: 'insert', appointment_id: 'new', status: 'booked', continues }
          : { op: 'insert', appointment_id: 'new', status: 'booked' },
      );
      expect(plan.subject).toEqual({ appointment_id: 'new', status: 'booked' });
      expect(plan.otherBooked).toBe(false);
    },
  );

  it('When the new booking is a retry (already recorded), then the replaced one is left alone', () => {
    const plan = planAgenda(BOOK, {
      named: { appointment_id: 'new', status: 'booked' },
      booked: [{ appointment_id: 'O', scheduled_at: AT, external_id: 'a' }],
      incoming: fresh,
      replaced: old('booked'),
    });
    expect(plan.changes).toEqual([]);
  });
});

describe('isSuperseded', () => {
  it.each<[string, boolean, AppointmentStatus | null, AppointmentStatus | null]>([
    ['an invitee never seen, no replacement known', false, null, null],
    ['a booked invitee, no replacement known', false, 'booked', null],
    ['a no-show, no replacement known', false, 'no_show', null],
    ['a canceled invitee, no replacement known', false, 'canceled', null],
    ['an invitee already rescheduled', true, 'rescheduled', null],
    ['a booked invitee whose replacement is on the agenda', true, 'booked', 'booked'],
    ['an invitee never seen whose replacement is on the agenda', true, null, 'booked'],
    ['a booked invitee whose replacement was canceled since', true, 'booked', 'canceled'],
  ])('When the event is about %s, then superseded is %s', (_label, expected, own, replacement) => {
    expect(
      isSuperseded({
        named: own ? named(own) : null,
        replacement: replacement ? { appointment_id: 'R', status: replacement } : null,
      }),
    ).toBe(expected);
  });
});

/**
 * A scheduler's events for one contact, applied in turn to an in-memory agenda the way the gateway
 * applies them to the database: each event names its invitee (the appointment's external id), and
 * bookings and cancels carry the invitee's meeting time.
 */
type Invitee = 'A' | 'B';
/** `rebook B`: B's booking names A as the invitee it replaces (its old_invitee). */
type Step = [AgendaEvent['kind'] | 'reschedule' | 'rebook', Invitee];
const TIMES: Record<Invitee, string> = { A: '2027-01-15T19:30:00.000Z', B: TIMES_NEW };
const EVENTS: Record<Step[0], AgendaEvent> = {
  book: BOOK,
  rebook: BOOK,
  cancel: CANCEL,
  reschedule: RESCHEDULE,
  no_show: NO_SHOW,
  no_show_removed: NO_SHOW_REMOVED,
};

function run(steps: Step[]): Record<string, AppointmentStatus> {
  const agenda = new Map<string, { status: AppointmentStatus; scheduled_at: string }>();
  for (const [kind, invitee] of steps) {
    const current = agenda.get(invitee);
    const old = kind === 'rebook' ? agenda.get('A') : undefined;
    const state: AgendaState = {
      named: current ? { appointment_id: invitee, status: current.status } : null,
      booked: [...agenda]
        .filter(([, a]) => a.status === 'booked')
        .map(([id, a]) => ({ appointment_id: id, scheduled_at: a.scheduled_at, external_id: id })),
      incoming: { appointment_id: invitee, scheduled_at: TIMES[invitee], external_id: invitee },
      replaced: old ? { appointment_id: 'A', status: old.status } : null,
    };
    for (const change of planAgenda(EVENTS[kind], state).changes) {
      const before = agenda.get(change.appointment_id);
      if (change.op === 'insert') {
        expect(before).toBeUndefined();
        agenda.set(change.appointment_id, { status: change.status, scheduled_at: TIMES[invitee] });
      } else {
        expect(before?.status).toBe(change.from);
        agenda.set(change.appointment_id, { status: change.to, scheduled_at: before?.scheduled_at ?? '' });
      }
    }
  }
  return Object.fromEntries([...agenda].map(([id, a]) => [id, a.status]));
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Every order, each also with every event sent twice (scheduler retries). */
function everyOrder(steps: Step[]): Array<[string, Step[]]> {
  return permutations(steps).flatMap((order) => {
    const label = order.map(([kind, invitee]) => `${kind} ${invitee}`).join(', ');
    return [
      [label, order],
      [`${label}, each twice`, order.flatMap((step) => [step, step])],
    ] as Array<[string, Step[]]>;
  });
}

describe('planAgenda: a scheduler’s events in every order, late and repeated', () => {
  it.each(
    everyOrder([
      ['book', 'A'],
      ['cancel', 'A'],
    ]),
  )('When a booking and its cancel arrive as %s, then the appointment ends canceled', (_label, steps) => {
    expect(run(steps)).toEqual({ A: 'canceled' });
  });

  it.each(
    everyOrder([
      ['book', 'A'],
      ['reschedule', 'A'],
      ['book', 'B'],
    ]),
  )(
    'When a reschedule (old booking, its cancel, the new booking) arrives as %s, then the old is rescheduled and the new booked',
    (_label, steps) => {
      expect(run(steps)).toEqual({ A: 'rescheduled', B: 'booked' });
    },
  );

  it.each(
    everyOrder([
      ['book', 'A'],
      ['reschedule', 'A'],
      ['rebook', 'B'],
    ]),
  )(
    'When a reschedule whose new booking names the old invitee arrives as %s, then the old is rescheduled and the new booked',
    (_label, steps) => {
      expect(run(steps)).toEqual({ A: 'rescheduled', B: 'booked' });
    },
  );

  it.each(
    everyOrder([
      ['book', 'A'],
      ['book', 'B'],
      ['cancel', 'A'],
    ]),
  )('When a contact books twice and cancels one, as %s, then the other booking stays', (_label, steps) => {
    expect(run(steps)).toEqual({ A: 'canceled', B: 'booked' });
  });

  it.each<[string, Step[], Record<string, AppointmentStatus>]>([
    [
      'book, no-show',
      [
        ['book', 'A'],
        ['no_show', 'A'],
      ],
      { A: 'no_show' },
    ],
    [
      'book, no-show, removed',
      [
        ['book', 'A'],
        ['no_show', 'A'],
        ['no_show_removed', 'A'],
      ],
      { A: 'booked' },
    ],
    [
      'book, no-show, cancel',
      [
        ['book', 'A'],
        ['no_show', 'A'],
        ['cancel', 'A'],
      ],
      { A: 'canceled' },
    ],
    [
      'book, cancel, late no-show',
      [
        ['book', 'A'],
        ['cancel', 'A'],
        ['no_show', 'A'],
      ],
      { A: 'canceled' },
    ],
    [
      'no-show before its booking',
      [
        ['no_show', 'A'],
        ['book', 'A'],
      ],
      { A: 'booked' },
    ],
    [
      'removal before the no-show',
      [
        ['book', 'A'],
        ['no_show_removed', 'A'],
        ['no_show', 'A'],
      ],
      { A: 'no_show' },
    ],
  ])('When no-show events arrive as %s, then the appointment ends as expected', (_label, steps, expected) => {
    expect(run(steps)).toEqual(expected);
    expect(run(steps.flatMap((step) => [step, step]))).toEqual(expected);
  });
});

describe('planAgenda: properties', () => {
  const statusArb = fc.option(fc.constantFrom(...APPOINTMENT_STATUSES), { nil: null });
  const eventArb = fc.constantFrom(BOOK, CANCEL, RESCHEDULE, NO_SHOW, NO_SHOW_REMOVED);
  const bookedArb = fc.uniqueArray(
    fc.record({
      appointment_id: fc.constantFrom('B', 'C', 'D'),
      scheduled_at: fc.constantFrom(AT, TIMES.B),
      external_id: fc.constantFrom(null, 'x'),
    }),
    { selector: (b) => b.appointment_id, maxLength: 3 },
  );
  const incomingArb = fc.option(
    fc.record({
      appointment_id: fc.constant('new'),
      scheduled_at: fc.constantFrom(AT, TIMES.B),
      external_id: fc.constantFrom(null, 'a'),
    }),
    { nil: null },
  );
  const stateArb = fc
    .tuple(statusArb, bookedArb, incomingArb)
    .map(([status, booked, incoming]): AgendaState => ({
      named: status ? named(status) : null,
      booked:
        status === 'booked'
          ? [...booked, { appointment_id: 'A', scheduled_at: AT, external_id: 'a' }]
          : booked,
      incoming,
    }));

  it('When any event meets any agenda, then each change starts from the status it finds and the plan is consistent', () => {
    fc.assert(
      fc.property(eventArb, stateArb, (event, state) => {
        const plan = planAgenda(event, state);
        const statuses = new Map(state.booked.map((b) => [b.appointment_id, 'booked' as AppointmentStatus]));
        if (state.named) statuses.set(state.named.appointment_id, state.named.status);
        for (const change of plan.changes) {
          if (change.op === 'update') expect(statuses.get(change.appointment_id)).toBe(change.from);
          else expect(statuses.has(change.appointment_id)).toBe(false);
          statuses.set(change.appointment_id, change.op === 'insert' ? change.status : change.to);
        }
        // Only a booking touches appointments other than the one the event names or records.
        if (event.kind !== 'book') {
          for (const change of plan.changes) expect(['A', 'new']).toContain(change.appointment_id);
        }
        // A scheduler's booking never moves another scheduler booking (unless it names it as replaced).
        if (event.kind === 'book' && state.incoming?.external_id) {
          const schedulers = new Set(state.booked.filter((b) => b.external_id).map((b) => b.appointment_id));
          for (const change of plan.changes) expect(schedulers.has(change.appointment_id)).toBe(false);
        }
        // otherBooked: one of the lead's bookings besides the subject is still booked.
        const stillBooked = state.booked.filter(
          (b) =>
            b.appointment_id !== plan.subject?.appointment_id && statuses.get(b.appointment_id) === 'booked',
        );
        expect(plan.otherBooked).toBe(stillBooked.length > 0);
        if (plan.subject) expect(statuses.get(plan.subject.appointment_id)).toBe(plan.subject.status);
      }),
      { numRuns: 1000 },
    );
  });

  it('When a scheduler retries an event, then the retry changes nothing', () => {
    fc.assert(
      fc.property(eventArb, stateArb, (event, state) => {
        const plan = planAgenda(event, state);
        if (!plan.subject) return;
        const after = new Set(
          plan.changes.filter((c) => c.op === 'update' && c.to !== 'booked').map((c) => c.appointment_id),
        );
        const again = planAgenda(event, {
          named: plan.subject,
          booked: state.booked.filter((b) => !after.has(b.appointment_id)),
          incoming: state.incoming,
        });
        expect(again.changes).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

function describeChange(c: ReturnType<typeof planAgenda>['changes'][number]): string {
  return c.op === 'insert'
    ? `insert ${c.appointment_id} ${c.status}`
    : `update ${c.appointment_id} ${c.from}→${c.to}`;
}
