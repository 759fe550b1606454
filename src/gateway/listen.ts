import type { Previews } from '../automations/preview.ts';
import { parseBookingEvent } from '../booking-events/parse-event.ts';
import { isTransientDbError } from '../db/database.ts';
import type { ErrorCode } from '../errors.ts';
import { sanitizeJson } from '../ingest/sanitize.ts';
import type { FieldWarning } from '../ingest/types.ts';
import type { JsonObject } from '../json.ts';
import { contactKeys } from '../leads/contact-keys.ts';
import type { NewListenSample, SampleStore } from '../listen/listen-sample-repository.ts';
import type { Queryable } from '../db/index.ts';
import type { LeadFields } from '../ingest/types.ts';
import { routeInAgency, type Routed } from '../routing/route-delivery.ts';
import { acceptLead } from '../sources/acceptance.ts';
import { currentSourceValues } from '../sources/source-repository.ts';
import type { AuthenticatedSource } from '../sources/source-repository.ts';
import type { PreparedLead } from './prepare-lead.ts';
import { missingName, rejected, unavailable, type DeliveryResult } from './result.ts';
import { UNCONFIRMED, type SourceClaim, type Unconfirmed } from './source-directory.ts';
import { prepareSourceLead } from './source-rules.ts';

type SourceIds = Pick<AuthenticatedSource, 'agent_id' | 'source_id' | 'agency_id' | 'terms'>;

/** Who a lead of an agency would be routed to now, moving no rotation (`routeInAgency` without commit). */
export type RoutePreview = (agencyId: string, fields: LeadFields) => Promise<Routed>;

export function createRoutePreview(db: Queryable): RoutePreview {
  return (agencyId, fields) => routeInAgency(db, agencyId, fields, { commit: false });
}

/** What a sample's preview needs: what a live delivery would fire, and where it would be routed. */
export interface Foresight {
  previews: Previews;
  routes: RoutePreview;
}

/** What storing a sample needs: its preview, and where samples are stored. */
export interface ListenDeps extends Foresight {
  samples: SampleStore;
}

/** What the mapping made of a lead body, as a sample shows it. */
export interface MappedContent {
  /** Which envelope adapter read the body; null when there was no body to read. */
  body_format: string | null;
  /** The lead as it would land, with its status and the contact's inferred zone. */
  mapped: JsonObject;
  custom_fields: JsonObject;
  warnings: FieldWarning[];
}

/** A Listen sample's content: the mapping, the error a live delivery would get, what it would fire. */
export interface SampleContent extends MappedContent {
  error_code: ErrorCode | null;
  error_details: string | null;
  would_fire: JsonObject | null;
  would_route: JsonObject | null;
}

/** The mapping of a prepared lead as a sample shows it. Pure. */
export function mappedContent(lead: PreparedLead): MappedContent {
  return {
    body_format: lead.format,
    mapped: {
      ...lead.fields,
      status: lead.status,
      inferred_timezone: lead.timezone,
      timezone_source: lead.timezoneSource,
    },
    custom_fields: lead.custom_fields,
    warnings: lead.warnings,
  };
}

/**
 * What a Listen delivery of this lead shows: its mapping, MISSING_NAME when it has no name,
 * LEAD_NOT_ACCEPTED with the rule when the source's acceptance rules would refuse it, and (when it
 * would be taken) who an agency's lead would go to and what a live delivery would trigger for that
 * producer. Its caps are not counted: a Listen delivery takes no place under them. Reads only.
 */
async function previewContent(
  foresight: Foresight,
  source: SourceIds,
  lead: PreparedLead,
): Promise<SampleContent> {
  const verdict = acceptLead(source.terms.accept, lead.fields);
  const refusal: { code: ErrorCode; details: string | null } | null = !lead.hasName
    ? { code: 'MISSING_NAME', details: null }
    : verdict.accepted
      ? null
      : { code: 'LEAD_NOT_ACCEPTED', details: verdict.details };
  const errorCode = refusal?.code ?? null;
  const routed =
    errorCode === null && source.agency_id ? await foresight.routes(source.agency_id, lead.fields) : null;
  const producer = routed ? { ...source, agent_id: routed.agent_id } : source;
  return {
    ...mappedContent(lead),
    error_code: errorCode,
    error_details: refusal?.details ?? null,
    would_fire: errorCode ? null : await wouldFire(foresight.previews, producer, lead),
    would_route: routed ? { agent_id: routed.agent_id, rule: routed.routing.rule } : null,
  };
}

/**
 * Listen mode (dry run): stores the sample — raw body, the lead as it would land, what went to
 * custom_fields, warnings, the error it would get, and what a live delivery would have triggered
 * (create or merge, the call task and the text, the destinations) — and nothing else: no lead, no
 * appointment, no outbox message, no idempotency key. A sample without a name is stored (so the
 * agent sees why) and then answered with MISSING_NAME. The sample's insert checks the token itself
 * (still this source's, at the revision the claim read), as a live lead's write does: a claim from
 * this process's memory needs no lookup first, and one that is no longer current stores nothing
 * and comes back UNCONFIRMED, for the gateway to ask the database and deliver again.
 */
export async function recordListenSample(
  deps: ListenDeps,
  claim: SourceClaim,
  body: JsonObject,
  lead: PreparedLead,
): Promise<DeliveryResult | Unconfirmed> {
  const stored = await storeSample(deps.samples, claim, async () => ({
    body,
    ...(await previewContent(deps, claim.source, lead)),
  }));
  if (stored.kind !== 'listened') return stored;
  return lead.hasName ? stored : missingName();
}

/**
 * A stored sample's body mapped again with the source's rules in force now, exactly as a Listen
 * delivery of it would be; nothing is written. A booking-scheduler event is not mapped by rules:
 * null.
 */
export function remapSample(
  foresight: Foresight,
  source: SourceIds & Pick<AuthenticatedSource, 'agent_timezone' | 'mapping_rules'>,
  body: JsonObject,
): Promise<SampleContent> | null {
  if (parseBookingEvent(body)) return null;
  return previewContent(foresight, source, prepareSourceLead(body, source, Date.now()));
}

/** A scheduler event other than a booking, in Listen mode: the sample says what would be done. */
export function recordListenEvent(
  deps: ListenDeps,
  claim: SourceClaim,
  body: JsonObject,
  mapped: { event: string; action: string },
): Promise<DeliveryResult | Unconfirmed> {
  return storeSample(deps.samples, claim, async () => ({
    body,
    body_format: null,
    mapped,
    custom_fields: {},
    warnings: [],
    error_code: null,
    error_details: null,
  }));
}

function wouldFire(previews: Previews, source: SourceIds, lead: PreparedLead) {
  return previews({
    agent_id: source.agent_id,
    source_id: source.source_id,
    lead: { ...lead.fields, status: lead.status },
    keys: contactKeys(lead.fields),
    hasAppointment: lead.appointment !== null,
    now: new Date(),
  });
}

type ListenContent = Omit<NewListenSample, 'agent_id' | 'source_id' | 'listen' | 'raw_body'> & {
  body: JsonObject;
};

async function storeSample(
  samples: SampleStore,
  { source, tokenHash }: SourceClaim,
  build: () => Promise<ListenContent>,
): Promise<DeliveryResult | Unconfirmed> {
  try {
    const sample = await build();
    const stored = await samples.listen(
      {
        ...sample,
        agent_id: source.agent_id,
        source_id: source.source_id,
        listen: true,
        raw_body: null,
        body: sanitizeJson(sample.body),
      },
      currentSourceValues(tokenHash, source),
    );
    return stored === null ? UNCONFIRMED : { kind: 'listened' };
  } catch (err) {
    return isTransientDbError(err)
      ? unavailable(err)
      : rejected('LISTEN_INSERT_FAILED', undefined, { cause: err });
  }
}
