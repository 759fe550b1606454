import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireSource } from '../admin/lookups.ts';
import { CreateDestinationBody } from '../admin/schemas/automations.ts';
import { CreateSourceBody, MetaForm, UpdateSourceBody } from '../admin/schemas/sources.ts';
import { addDestination } from '../use-cases/destinations.ts';
import { changeLeadSource, createLeadSource, regenerateLeadSourceToken } from '../use-cases/sources.ts';
import { webhookUrl } from '../use-cases/webhook-url.ts';
import { deleteDestination, listDestinations } from '../automations/destination-repository.ts';
import { listCadences } from '../automations/cadence-repository.ts';
import type { DestinationKind } from '../automations/payloads.ts';
import { isUuid } from '../sources/tokens.ts';
import { listSources } from '../sources/source-repository.ts';
import type { SourceRow } from '../sources/source-row.ts';
import type { Html } from './html.ts';
import { AppError } from '../errors.ts';
import { readTermsForm } from './source-terms-form.ts';
import type { ConsoleDeps } from './deps.ts';
import { consolePage, csrfToken, signedIn, type SignedIn } from './context.ts';
import { destinationNotice, refusal, sourcesPage, tokenNotice } from './views/sources.ts';

type Form = Record<string, string | undefined>;
const form = (request: FastifyRequest): Form => (request.body ?? {}) as Form;

/** A password field left blank means "leave it as it is": it is not checked, nor set. */
async function dropBlankFields(request: FastifyRequest): Promise<void> {
  const body = request.body as Form | undefined;
  if (body) request.body = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== ''));
}

/**
 * The sources page. Its forms post the fields the admin API takes, checked by the same schemas
 * (`request.validationError`, in the same words) and done by the same use cases.
 */
export function registerSourcePages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const render = async (reply: FastifyReply, me: SignedIn, notice?: Html, status = 200) => {
    const [sources, cadences] = await Promise.all([
      listSources(deps.db, me.agent.agent_id),
      listCadences(deps.db, me.agent.agent_id),
    ]);
    const destinations = await Promise.all(sources.map((s) => listDestinations(deps.db, s.source_id)));
    const body = sourcesPage({
      sources: sources.map((s, i) => ({ ...s, destinations: destinations[i] ?? [] })),
      cadences: cadences.map((c) => ({ cadence_id: c.cadence_id, name: c.name })),
      defaultCadenceId: me.agent.default_cadence_id,
      zone: me.agent.timezone,
      csrf: csrfToken(reply),
      gatewayUrl: webhookUrl(deps.publicBaseUrl),
      gatewayUrlWithToken: webhookUrl(deps.publicBaseUrl, 'YOUR_TOKEN'),
      ...(notice ? { notice } : {}),
    });
    return consolePage(reply.code(status), me, 'Sources', '/console/sources', body);
  };
  const why = (request: FastifyRequest) =>
    (request.validationError as { details?: string } | undefined)?.details ?? 'not valid';
  const refused = (request: FastifyRequest, what: string) => refusal(`${what}: ${why(request)}.`);
  const checked = (body: object, extra: object = {}) => ({
    preHandler: scope.csrfProtection,
    schema: { body },
    attachValidation: true,
    ...extra,
  });

  /** A form posted about one of the agent's sources: CSRF checked, the agent and the source loaded. */
  const onSource = (
    path: string,
    body: object,
    handle: (
      me: SignedIn,
      source: SourceRow,
      request: FastifyRequest,
      reply: FastifyReply,
    ) => Promise<unknown>,
    extra: object = {},
  ) =>
    scope.post<{ Params: { source_id: string } }>(path, checked(body, extra), async (request, reply) => {
      const me = await signedIn(deps, request);
      const source = await requireSource(deps.db, request.params.source_id, me.agent.agent_id);
      return handle(me, source, request, reply);
    });

  scope.get('/sources', async (request, reply) => render(reply, await signedIn(deps, request)));

  scope.post('/sources', checked(CreateSourceBody), async (request, reply) => {
    const me = await signedIn(deps, request);
    if (request.validationError)
      return render(reply, me, refused(request, 'The source was not created'), 400);
    const issued = await createLeadSource(
      deps.db,
      deps.publicBaseUrl,
      me.agent.agent_id,
      form(request).name ?? '',
    );
    return render(reply, me, tokenNotice(issued.name, issued, 'created', webhookUrl(deps.publicBaseUrl)));
  });

  onSource('/sources/:source_id/regenerate', {}, async (me, source, _request, reply) => {
    const issued = await regenerateLeadSourceToken(deps.db, deps.publicBaseUrl, source.source_id);
    if (!issued) return render(reply, me, refusal('That source is gone.'), 404);
    const what = 'regenerated: the old token is refused from now on';
    return render(reply, me, tokenNotice(source.name, issued, what, webhookUrl(deps.publicBaseUrl)));
  });

  onSource('/sources/:source_id/active', {}, async (_me, source, request, reply) => {
    await changeLeadSource(deps.db, deps.secrets, source, { active: form(request).active === 'true' });
    return reply.redirect('/console/sources', 303);
  });

  onSource('/sources/:source_id/signing-key', UpdateSourceBody, async (me, source, request, reply) => {
    const { signing_key: key, remove } = form(request);
    if (remove === '1') await changeLeadSource(deps.db, deps.secrets, source, { signing_key: null });
    else if (request.validationError && key)
      return render(reply, me, refusal(`The signing key ${why(request)}; it was not changed.`), 400);
    else if (key) await changeLeadSource(deps.db, deps.secrets, source, { signing_key: key });
    return reply.redirect('/console/sources', 303);
  });

  onSource(
    '/sources/:source_id/meta',
    MetaForm,
    async (me, source, request, reply) => {
      const f = form(request);
      if (f.remove === '1') {
        const meta = { page_access_token: null, app_secret: null, verify_token: null };
        await changeLeadSource(deps.db, deps.secrets, source, { meta });
      } else if (request.validationError) {
        return render(reply, me, refusal(`The Meta settings ${why(request)}; nothing was changed.`), 400);
      } else {
        const meta = {
          page_access_token: f.page_access_token,
          app_secret: f.app_secret,
          verify_token: f.verify_token,
          listen: f.mode === 'listen',
        };
        await changeLeadSource(deps.db, deps.secrets, source, { meta, google_key: f.google_key });
      }
      return reply.redirect('/console/sources', 303);
    },
    { preValidation: dropBlankFields },
  );

  onSource('/sources/:source_id/terms', {}, async (me, source, request, reply) => {
    const read = readTermsForm(form(request));
    const unchanged = (why: string) =>
      render(reply, me, refusal(`The terms ${why}; nothing was changed.`), 400);
    if (!read.ok) return unchanged(`were not saved: ${read.why}`);
    try {
      await changeLeadSource(deps.db, deps.secrets, source, read.change);
    } catch (err) {
      if (err instanceof AppError && err.code === 'VALIDATION_ERROR')
        return unchanged(`were not saved: ${err.details}`);
      throw err;
    }
    return reply.redirect('/console/sources', 303);
  });

  onSource('/sources/:source_id/cadence', {}, async (me, source, request, reply) => {
    const id = form(request).cadence_id;
    const unchanged = () =>
      render(reply, me, refusal('That cadence is not one of yours; nothing was changed.'), 404);
    if (id !== '' && (typeof id !== 'string' || !isUuid(id))) return unchanged();
    try {
      // Blank: the agent's default. Another agent's cadence is refused by the database.
      await changeLeadSource(deps.db, deps.secrets, source, {
        cadence_id: id === '' ? null : id.toLowerCase(),
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'CADENCE_NOT_FOUND') return unchanged();
      throw err;
    }
    return reply.redirect('/console/sources', 303);
  });

  onSource('/sources/:source_id/destinations', CreateDestinationBody, async (me, source, request, reply) => {
    if (request.validationError)
      return render(reply, me, refused(request, 'That destination cannot be used'), 400);
    const { kind, url } = form(request);
    const input = { kind: kind as DestinationKind, url: url ?? '', events: null };
    const added = await addDestination(deps.db, source, input, deps.allowPrivateDestinations ?? false);
    if (!added.ok) return render(reply, me, refusal(`That URL cannot be used: ${added.reason}.`), 400);
    return render(reply, me, destinationNotice(added.destination.url, added.secret));
  });

  scope.post<{ Params: { destination_id: string } }>(
    '/destinations/:destination_id/remove',
    { preHandler: scope.csrfProtection },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const id = request.params.destination_id;
      if (isUuid(id)) await deleteDestination(deps.db, id, me.agent.agent_id);
      return reply.redirect('/console/sources', 303);
    },
  );
}
