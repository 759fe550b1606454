import { appError } from '../errors.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { ownerOf } from './auth.ts';
import { LeadActionResult, LeadCallBody, LeadNoteBody, LeadStatusBody } from './schemas/lead-actions.ts';
import { LeadParams } from './schemas/leads.ts';
import { answers, AUTH, BODY, operation } from './schemas/errors.ts';
import { actOnLead, type LeadAction } from '../use-cases/lead-actions.ts';
import type { FastifyRequest } from 'fastify';

/**
 * An agent's actions on a lead: change its status, add a note, record a call, mark it "do not
 * contact". Each writes a history line and a `lead.updated` message in one transaction; the
 * console's lead page does the same through the same use case.
 */
export function registerLeadActionRoutes(app: AdminApp, deps: AdminDeps): void {
  const act = async (request: FastifyRequest, leadId: string, action: LeadAction) => {
    const done = await actOnLead(
      deps.db,
      { lead_id: leadId.toLowerCase(), owner: ownerOf(request) },
      action,
      new Date(),
    );
    if (!done.ok)
      throw appError(done.code === 'STATUS_NOT_ALLOWED' ? done.code : 'LEAD_NOT_FOUND', done.details);
    return { lead_id: done.lead_id, status: done.status, status_from: done.status_from };
  };
  const NOT_FOUND = [...AUTH, 'LEAD_NOT_FOUND'] as const;

  app.post(
    '/leads/:lead_id/status',
    {
      schema: {
        ...operation('setLeadStatus', 'Change a lead’s status (the allowed changes only)'),
        params: LeadParams,
        body: LeadStatusBody,
        response: answers({ 200: LeadActionResult }, [...NOT_FOUND, 'STATUS_NOT_ALLOWED', ...BODY]),
      },
    },
    async (request) => act(request, request.params.lead_id, { kind: 'status', status: request.body.status }),
  );

  app.post(
    '/leads/:lead_id/notes',
    {
      schema: {
        ...operation('addLeadNote', 'Add a note to a lead’s history'),
        params: LeadParams,
        body: LeadNoteBody,
        response: answers({ 200: LeadActionResult }, [...NOT_FOUND, ...BODY]),
      },
    },
    async (request) => act(request, request.params.lead_id, { kind: 'note', note: request.body.note.trim() }),
  );

  app.post(
    '/leads/:lead_id/call-outcome',
    {
      schema: {
        ...operation(
          'recordLeadCall',
          'Record a call to a lead; its open call task, if any, is closed by it',
        ),
        params: LeadParams,
        body: LeadCallBody,
        response: answers({ 200: LeadActionResult }, [...NOT_FOUND, ...BODY]),
      },
    },
    async (request) =>
      act(request, request.params.lead_id, { kind: 'call_outcome', outcome: request.body.outcome }),
  );

  app.post(
    '/leads/:lead_id/do-not-contact',
    {
      schema: {
        ...operation(
          'markDoNotContact',
          'Mark a lead “do not contact”: no more texts or calls to its number from this agent',
        ),
        params: LeadParams,
        response: answers({ 200: LeadActionResult }, NOT_FOUND),
      },
    },
    async (request) => act(request, request.params.lead_id, { kind: 'do_not_contact' }),
  );
}
