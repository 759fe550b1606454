import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LeadCallBody, LeadNoteBody, LeadStatusBody } from '../admin/schemas/lead-actions.ts';
import { actOnLead, type LeadAction } from '../use-cases/lead-actions.ts';
import type { CallOutcome, LeadStatus } from '../leads/lead-status.ts';
import { listDestinations } from '../automations/destination-repository.ts';
import { markThreadRead, readThread } from '../conversations/thread-repository.ts';
import { readLead } from '../use-cases/lead-read.ts';
import { stopLeadCadence } from '../use-cases/cadences.ts';
import { listSources } from '../sources/source-repository.ts';
import { appError } from '../errors.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, csrfToken, signedIn } from './context.ts';
import { queryValue } from './query.ts';
import { ACTION_NOTICES, type ActionNotice } from './views/lead-actions.ts';
import { leadAutomations } from './lead-automations.ts';
import { leadPage } from './views/lead.ts';
import { registerLeadEconomics } from './lead-economics.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerLeadPage(scope: FastifyInstance, deps: ConsoleDeps): void {
  scope.get<{ Params: { lead_id: string } }>('/leads/:lead_id', async (request, reply) => {
    const me = await signedIn(deps, request);
    const id = request.params.lead_id;
    // Another agent's lead is exactly as missing as one that never was.
    const lead = UUID.test(id) ? await readLead(deps.db, id.toLowerCase(), me.agent.agent_id) : null;
    if (!lead) throw appError('LEAD_NOT_FOUND');
    // The lead page is where its thread is read: opening it marks the replies read.
    await markThreadRead(deps.db, me.agent.agent_id, lead.lead_id, new Date());
    const [sources, automations, destinations, messages] = await Promise.all([
      listSources(deps.db, me.agent.agent_id),
      leadAutomations(deps.db, me.agent.agent_id, lead.lead_id, new Date()),
      listDestinations(deps.db, lead.source_id),
      readThread(deps.db, me.agent.agent_id, lead.lead_id),
    ]);
    const sourceNames = new Map(sources.map((s) => [s.source_id, s.name]));
    const done = queryValue(request.query, 'done');
    const notice = done && Object.hasOwn(ACTION_NOTICES, done) ? (done as ActionNotice) : undefined;
    return consolePage(
      reply,
      me,
      lead.name,
      '/console/leads',
      leadPage({
        lead,
        zone: me.agent.timezone,
        sourceNames,
        automations,
        destinations: destinations.filter((d) => d.active).length,
        messages,
        csrf: csrfToken(reply),
        ...(notice ? { notice } : {}),
      }),
    );
  });

  registerLeadActions(scope, deps);
  registerLeadEconomics(scope, deps);
}

type Form = Record<string, string | undefined>;

/**
 * The lead page's actions, the admin API's own (`actOnLead`), checked by its schemas: each sends
 * the agent back to the lead with a line saying what was saved, or that nothing was.
 */
function registerLeadActions(scope: FastifyInstance, deps: ConsoleDeps): void {
  const action = (
    path: string,
    body: object | null,
    notice: ActionNotice,
    toAction: (form: Form) => LeadAction,
  ) =>
    scope.post<{ Params: { lead_id: string } }>(
      `/leads/:lead_id/${path}`,
      { preHandler: scope.csrfProtection, ...(body ? { schema: { body }, attachValidation: true } : {}) },
      async (request: FastifyRequest<{ Params: { lead_id: string } }>, reply: FastifyReply) => {
        const me = await signedIn(deps, request);
        const id = request.params.lead_id;
        if (!UUID.test(id)) throw appError('LEAD_NOT_FOUND');
        const back = (done: ActionNotice) => reply.redirect(`/console/leads/${id}?done=${done}`, 303);
        if (request.validationError) return back('refused');
        const done = await actOnLead(
          deps.db,
          { lead_id: id.toLowerCase(), owner: me.agent.agent_id },
          toAction((request.body ?? {}) as Form),
          new Date(),
        );
        if (!done.ok && done.code === 'LEAD_NOT_FOUND') throw appError('LEAD_NOT_FOUND');
        return back(done.ok ? notice : 'refused');
      },
    );
  // The bodies passed their schemas (the same enums as the admin API's) before these casts.
  action('status', LeadStatusBody, 'status', (f) => ({ kind: 'status', status: f.status as LeadStatus }));
  action('notes', LeadNoteBody, 'note', (f) => ({ kind: 'note', note: (f.note ?? '').trim() }));
  action('call', LeadCallBody, 'call', (f) => ({ kind: 'call_outcome', outcome: f.outcome as CallOutcome }));
  action('do-not-contact', null, 'dnc', () => ({ kind: 'do_not_contact' }));

  // The agent stops the lead's plan by hand: the admin API's use case, under the lead's lock.
  scope.post<{ Params: { lead_id: string } }>(
    '/leads/:lead_id/cadence/stop',
    { preHandler: scope.csrfProtection },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const id = request.params.lead_id;
      if (!UUID.test(id)) throw appError('LEAD_NOT_FOUND');
      const stopped = await stopLeadCadence(deps.db, id.toLowerCase(), me.agent.agent_id, new Date());
      if (stopped === 'no lead') throw appError('LEAD_NOT_FOUND');
      const done: ActionNotice = stopped === 'no cadence' ? 'cadence_refused' : 'cadence_stopped';
      return reply.redirect(`/console/leads/${id}?done=${done}`, 303);
    },
  );
}
