import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ReturnBody } from '../admin/schemas/economics.ts';
import { LIMITS } from '../limits.ts';
import { requestReturn } from '../economics/returns.ts';
import type { ReturnReason } from '../economics/return-rules.ts';
import { recordSale } from '../economics/sales.ts';
import { appError } from '../errors.ts';
import { readDollars } from '../money.ts';
import type { ConsoleDeps } from './deps.ts';
import { signedIn } from './context.ts';
import type { ActionNotice } from './views/lead-actions.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ReturnForm = Type.Object({ reason: ReturnBody.properties.reason });

type Params = { Params: { lead_id: string } };
type Form = Record<string, string | undefined>;

/**
 * The lead page's sale and return, through the admin API's use cases (src/economics/): each sends
 * the agent back to the lead with a line saying what was done, or why not.
 */
export function registerLeadEconomics(scope: FastifyInstance, deps: ConsoleDeps): void {
  const target = async (request: FastifyRequest<Params>) => {
    const me = await signedIn(deps, request);
    const id = request.params.lead_id;
    if (!UUID.test(id)) throw appError('LEAD_NOT_FOUND');
    return { lead_id: id.toLowerCase(), owner: me.agent.agent_id };
  };
  const back = (reply: FastifyReply, id: string, done: ActionNotice) =>
    reply.redirect(`/console/leads/${id}?done=${done}`, 303);

  scope.post<Params>('/leads/:lead_id/sale', { preHandler: scope.csrfProtection }, async (request, reply) => {
    const lead = await target(request);
    const form = (request.body ?? {}) as Form;
    const typed = readDollars(form.premium ?? '', 'premium');
    const product = (form.product ?? '').trim().slice(0, 200);
    if (!typed.ok)
      return back(reply, lead.lead_id, typed.why === 'too_large' ? 'sale_too_large' : 'sale_refused');
    const now = new Date();
    const done = await recordSale(
      deps.db,
      lead,
      { premium_cents: typed.cents, product: product || null, sold_at: now },
      now,
    );
    if (!done.ok) throw appError('LEAD_NOT_FOUND');
    return back(reply, lead.lead_id, 'sold');
  });

  scope.post<Params>(
    '/leads/:lead_id/return',
    // The reason as the admin API checks it; the form's note may be left empty.
    { preHandler: scope.csrfProtection, schema: { body: ReturnForm }, attachValidation: true },
    async (request, reply) => {
      const lead = await target(request);
      if (request.validationError) return back(reply, lead.lead_id, 'refused');
      const form = (request.body ?? {}) as Form;
      const note = (form.note ?? '').trim().slice(0, LIMITS.noteMaxLength);
      const done = await requestReturn(
        deps.db,
        lead,
        // The body passed the admin API's schema (the same reasons) before this cast.
        { reason: form.reason as ReturnReason, note: note || null },
        new Date(),
      );
      if (done.ok) return back(reply, lead.lead_id, 'returned');
      if (done.code === 'LEAD_NOT_FOUND') throw appError('LEAD_NOT_FOUND');
      const said = done.code === 'RETURN_DECIDED' || done.code === 'RETURN_NOT_FOUND' ? 'refused' : done.code;
      return back(reply, lead.lead_id, said);
    },
  );
}
