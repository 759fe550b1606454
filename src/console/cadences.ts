import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { changeAgent, reminderPatch } from '../admin/agent-reminders.ts';
import { updateAgent } from '../admin/agent-repository.ts';
import { reminderTemplateProblem } from '../automations/reminder-plan.ts';
import { LIMITS } from '../limits.ts';
import { CreateCadenceBody } from '../admin/schemas/cadences.ts';
import {
  createCadence,
  deleteCadence,
  getCadence,
  listCadences,
  updateCadence,
  type CadenceRow,
} from '../automations/cadence-repository.ts';
import type { CadenceStep } from '../automations/cadence-plan.ts';
import { appError } from '../errors.ts';
import { isUuid } from '../sources/tokens.ts';
import { postedRows, readSteps, ROWS_ADDED, rowsOf, type CadenceForm } from './cadence-form.ts';
import { consolePage, csrfToken, signedIn, type SignedIn } from './context.ts';
import type { ConsoleDeps } from './deps.ts';
import { queryValue } from './query.ts';
import {
  CADENCE_NOTICES,
  cadencePage,
  cadencesPage,
  type CadenceEditor,
  type CadenceNotice,
} from './views/cadences.ts';

/** The name as the admin API checks it, in its words; the rows are text, read by cadence-form.ts. */
const NameForm = Type.Object({ name: CreateCadenceBody.properties.name });

type Params = { Params: { cadence_id: string } };

/** The reminders form: checkboxes posted only when ticked, and the words up to the admin API's length. */
const ReminderForm = Type.Object({
  day_before: Type.Optional(Type.Literal('on')),
  hour_before: Type.Optional(Type.Literal('on')),
  template: Type.Optional(Type.String({ maxLength: LIMITS.smsTemplateMaxLength })),
});

/** A posted editor: to show again (more rows, or refused and why), or a cadence to save. */
type Posted = { editor: CadenceEditor } | { name: string; steps: CadenceStep[] };

function readPosted(request: FastifyRequest): Posted {
  const f = (request.body ?? {}) as CadenceForm;
  const more = f.more !== undefined;
  const name = typeof f.name === 'string' ? f.name : '';
  const rows = postedRows(f, more ? ROWS_ADDED : 0);
  if (more) return { editor: { name, rows } };
  const invalid = (request.validationError as { details?: string } | undefined)?.details;
  if (invalid) return { editor: { name, rows, error: `Nothing was saved: ${invalid}.` } };
  const read = readSteps(rows);
  if (!read.ok) return { editor: { name, rows, error: `Nothing was saved. ${read.why}` } };
  return { name: name.trim(), steps: read.steps };
}

/**
 * The cadences pages: the list with the form to make one, one cadence's form, deleting it, and the
 * agent's default. Done by the repositories the admin API's cadence routes use, with its checks.
 */
export function registerCadencePages(scope: FastifyInstance, deps: ConsoleDeps): void {
  const checked = {
    preHandler: scope.csrfProtection,
    schema: { body: NameForm },
    attachValidation: true,
  };
  const list = async (reply: FastifyReply, me: SignedIn, editor: CadenceEditor, notice?: CadenceNotice) => {
    const body = cadencesPage({
      cadences: await listCadences(deps.db, me.agent.agent_id),
      defaultId: me.agent.default_cadence_id,
      reminders: me.agent.reminders,
      zone: me.agent.timezone,
      csrf: csrfToken(reply),
      editor,
      ...(notice ? { notice } : {}),
    });
    return consolePage(reply, me, 'Cadences', '/console/cadences', body);
  };
  const one = async (reply: FastifyReply, me: SignedIn, cadence: CadenceRow, editor: CadenceEditor) =>
    consolePage(
      reply,
      me,
      cadence.name,
      '/console/cadences',
      cadencePage({
        cadence,
        isDefault: me.agent.default_cadence_id === cadence.cadence_id,
        csrf: csrfToken(reply),
        editor,
      }),
    );
  // Another agent's cadence is as missing as one that never was.
  const find = async (me: SignedIn, rawId: string) => {
    const cadence = isUuid(rawId) ? await getCadence(deps.db, me.agent.agent_id, rawId.toLowerCase()) : null;
    if (!cadence) throw appError('CADENCE_NOT_FOUND');
    return cadence;
  };
  const back = (reply: FastifyReply, done: CadenceNotice) =>
    reply.redirect(`/console/cadences?done=${done}`, 303);

  scope.get('/cadences', async (request, reply) => {
    const me = await signedIn(deps, request);
    const done = queryValue(request.query, 'done');
    const notice = done && Object.hasOwn(CADENCE_NOTICES, done) ? (done as CadenceNotice) : undefined;
    return list(reply, me, { name: '', rows: rowsOf([]) }, notice);
  });

  scope.post('/cadences', checked, async (request, reply) => {
    const me = await signedIn(deps, request);
    const posted = readPosted(request);
    if ('editor' in posted) return list(reply.code(posted.editor.error ? 400 : 200), me, posted.editor);
    await createCadence(deps.db, me.agent.agent_id, posted);
    return back(reply, 'created');
  });

  scope.post('/cadences/default', { preHandler: scope.csrfProtection }, async (request, reply) => {
    const me = await signedIn(deps, request);
    const id = (request.body as CadenceForm | undefined)?.cadence_id;
    if (id !== '' && (typeof id !== 'string' || !isUuid(id))) throw appError('CADENCE_NOT_FOUND');
    // Another agent's cadence is refused by the database: CADENCE_NOT_FOUND, the 404 page.
    await updateAgent(deps.db, me.agent.agent_id, {
      default_cadence_id: id === '' ? null : id.toLowerCase(),
    });
    return back(reply, id === '' ? 'no_default' : 'default');
  });

  // The reminders' switches and words, checked and done as the admin API's PATCH of the agent.
  scope.post(
    '/cadences/reminders',
    { preHandler: scope.csrfProtection, schema: { body: ReminderForm }, attachValidation: true },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const f = (request.body ?? {}) as { day_before?: string; hour_before?: string; template?: string };
      if (request.validationError) return back(reply, 'reminders_refused');
      const template = f.template?.trim() || null;
      if (template && reminderTemplateProblem(template)) return back(reply, 'reminders_refused');
      const reminders = reminderPatch({ day_before: !!f.day_before, hour_before: !!f.hour_before, template });
      await changeAgent(deps.db, me.agent, { reminders });
      return back(reply, 'reminders');
    },
  );

  scope.get<Params>('/cadences/:cadence_id', async (request, reply) => {
    const me = await signedIn(deps, request);
    const cadence = await find(me, request.params.cadence_id);
    return one(reply, me, cadence, { name: cadence.name, rows: rowsOf(cadence.steps) });
  });

  scope.post<Params>('/cadences/:cadence_id', checked, async (request, reply) => {
    const me = await signedIn(deps, request);
    const cadence = await find(me, request.params.cadence_id);
    const posted = readPosted(request);
    if ('editor' in posted)
      return one(reply.code(posted.editor.error ? 400 : 200), me, cadence, posted.editor);
    const saved = await updateCadence(deps.db, me.agent.agent_id, cadence.cadence_id, posted);
    if (!saved) throw appError('CADENCE_NOT_FOUND');
    return back(reply, 'saved');
  });

  scope.post<Params>(
    '/cadences/:cadence_id/delete',
    { preHandler: scope.csrfProtection },
    async (request, reply) => {
      const me = await signedIn(deps, request);
      const cadence = await find(me, request.params.cadence_id);
      await deleteCadence(deps.db, me.agent.agent_id, cadence.cadence_id);
      return back(reply, 'deleted');
    },
  );
}
