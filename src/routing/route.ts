import { rotate } from './rotation.ts';

export const ROUTING_RULES = ['owner', 'rotation', 'fallback', 'reassigned'] as const;
export type RoutingRule = (typeof ROUTING_RULES)[number];

export const SKIP_REASONS = ['not_licensed', 'inactive', 'daily_cap'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** How a lead of an agency came to its producer: stored on the lead and told in its history. */
export interface Routing {
  rule: RoutingRule;
  agency_id: string;
  /** The prospect's state as routing found it; null: unknown. */
  state: string | null;
  /** The producers passed over, and why. */
  skipped: Array<{ agent_id: string; reason: SkipReason }>;
  /** Every producer the lead was given to, first to last (the claim timer moves it at most twice). */
  tried: string[];
  /** When it was given to the producer it is with. */
  assigned_at: string;
}

/** A producer of the agency, as the routing of one lead reads it. */
export interface Member {
  agent_id: string;
  licensed_states: readonly string[];
  weight: number;
  daily_cap: number | null;
  active: boolean;
  /** The rotation's credit (rotation.ts). */
  credit: number;
  /** Leads given to it today, in the agency's time zone. */
  assigned_today: number;
}

export interface RouteInput {
  agency_id: string;
  fallback_agent_id: string;
  /** In the order they joined: the rotation breaks ties by it. */
  members: readonly Member[];
  state: string | null;
  /** The producer of the agency who already has this contact, if any. */
  owner: string | null;
  /** Producers the lead has been with already (the claim timer): never chosen again. */
  tried?: readonly string[];
  /** Producers who may not take it for another reason (they hold the same contact as another lead). */
  exclude?: readonly string[];
  /** Now: when the lead is given. */
  at: Date;
}

/** How many times the claim timer moves a lead on by rotation before the fallback producer takes it. */
export const MOVES_BEFORE_FALLBACK = 2;

export interface RouteDecision {
  agent_id: string;
  routing: Routing;
  /** The eligible producers' new rotation credits (none when the rotation did not run). */
  credits: Map<string, number>;
  /** Whether the chosen producer's count for the day grows (a lead newly given to it). */
  counts: boolean;
}

/**
 * The routing chain, pure: (a) the producer who owns the contact keeps it; (b) producers licensed
 * in the prospect's state, active and under their daily cap are eligible; (c) among them the
 * weighted fair rotation chooses; (d) nobody eligible, or no state → the fallback producer. A lead
 * the claim timer moves on (`tried`) goes to a producer it has not been with, and after
 * MOVES_BEFORE_FALLBACK moves to the fallback producer.
 */
export function routeLead(input: RouteInput): RouteDecision {
  const { agency_id, state, owner } = input;
  const tried = input.tried ?? [];
  const routing = (rule: RoutingRule, agent_id: string, skipped: Routing['skipped'] = []): Routing => ({
    rule,
    agency_id,
    state,
    skipped,
    tried: rule === 'owner' ? [...tried] : [...tried, agent_id],
    assigned_at: input.at.toISOString(),
  });
  if (owner !== null) {
    return { agent_id: owner, routing: routing('owner', owner), credits: new Map(), counts: false };
  }
  const fallback = (skipped: Routing['skipped'] = []): RouteDecision => {
    const agent_id = input.fallback_agent_id;
    return { agent_id, routing: routing('fallback', agent_id, skipped), credits: new Map(), counts: true };
  };
  if (state === null || tried.length > MOVES_BEFORE_FALLBACK) return fallback();

  const skipped: Routing['skipped'] = [];
  const eligible: Member[] = [];
  for (const m of input.members) {
    if (tried.includes(m.agent_id) || input.exclude?.includes(m.agent_id)) continue;
    const reason = skipReason(m, state);
    if (reason) skipped.push({ agent_id: m.agent_id, reason });
    else eligible.push(m);
  }
  if (eligible.length === 0) return fallback(skipped);
  const { agent_id, credits } = rotate(eligible);
  const rule = tried.length > 0 ? 'reassigned' : 'rotation';
  return { agent_id, routing: routing(rule, agent_id, skipped), credits, counts: true };
}

/** Why a producer may not take a lead from `state`, or null: it may. */
export function skipReason(m: Member, state: string): SkipReason | null {
  if (!m.licensed_states.includes(state)) return 'not_licensed';
  if (!m.active) return 'inactive';
  if (m.daily_cap !== null && m.assigned_today >= m.daily_cap) return 'daily_cap';
  return null;
}
