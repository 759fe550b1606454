/** A producer the rotation may choose, with what it is owed of its share so far. */
export interface RotationSeat {
  agent_id: string;
  weight: number;
  /** Leads owed minus leads given: each lead it was eligible for adds its share, each it got takes 1. */
  credit: number;
}

/** Below this, two credits are the same: they are sums of fractions kept as doubles. */
const EPSILON = 1e-9;

/**
 * Weighted fair rotation. Every eligible producer is owed `weight / total weight` of the lead; of
 * those owed anything, the one that would fall a whole lead behind its share soonest (earliest
 * deadline) gets it and pays 1. Over any run of leads with the same eligible producers, each one's
 * count stays within one lead of its share, which the plain "most credit wins" rotation of web
 * servers does not keep for some weights (src/routing/rotation.test.ts). Ties go to the heavier
 * producer, then to the earlier seat. Pure: returns the choice and every seat's new credit.
 */
export function rotate(seats: readonly RotationSeat[]): { agent_id: string; credits: Map<string, number> } {
  const total = seats.reduce((sum, s) => sum + s.weight, 0);
  if (seats.length === 0 || total <= 0) throw new Error('a rotation needs a producer with a weight');
  const owed = seats.map((s) => ({ seat: s, credit: s.credit + s.weight / total }));
  let chosen: (typeof owed)[number] | undefined;
  for (const o of owed) {
    if (o.credit <= EPSILON) continue;
    if (!chosen || sooner(o, chosen)) chosen = o;
  }
  // Credits sum to 0 before a lead and to 1 after its shares: someone is always owed.
  const pick = chosen ?? owed.reduce((a, b) => (b.credit > a.credit ? b : a));
  const credits = new Map(owed.map((o) => [o.seat.agent_id, o.credit - (o === pick ? 1 : 0)]));
  return { agent_id: pick.seat.agent_id, credits };
}

type Owed = { seat: RotationSeat; credit: number };

/** Whether `a` falls a lead behind before `b`: (1 − credit) / weight leads from now, compared exactly enough. */
function sooner(a: Owed, b: Owed): boolean {
  const left = (1 - a.credit) * b.seat.weight;
  const right = (1 - b.credit) * a.seat.weight;
  if (Math.abs(left - right) > EPSILON) return left < right;
  return a.seat.weight > b.seat.weight;
}
