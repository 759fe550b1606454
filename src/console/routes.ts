import type { FastifyError, FastifyInstance } from 'fastify';
import { isRefusedValue } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { registerAgencyPages } from './agencies.ts';
import { registerAgendaPage } from './agenda.ts';
import { registerCadencePages } from './cadences.ts';
import { registerConversationPages } from './conversations.ts';
import { ASSETS } from './assets.ts';
import { NotSignedIn } from './context.ts';
import type { ConsoleDeps } from './deps.ts';
import { html } from './html.ts';
import { page } from './layout.ts';
import { registerLeadPage } from './lead.ts';
import { registerLeadsPages } from './leads.ts';
import { registerListenPage } from './listen.ts';
import { registerLogin } from './login.ts';
import { installSessions } from './session.ts';
import { registerReportPage } from './report.ts';
import { registerSourcePages } from './sources.ts';
import { registerTodayPage } from './today.ts';
import { registerWorkPages } from './work.ts';
import { validationError } from '../admin/validation-errors.ts';

/**
 * The console's pages load only their own script and stylesheet, and talk only to their own
 * server: no inline script or style (htmx is told not to add its own, nor to evaluate any), no
 * other origin, no framing. A lead's text that slipped past the escaping could run nothing.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The agent console, mounted at /console: server-rendered pages, htmx for the live parts. */
export async function registerConsole(scope: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  await installSessions(scope, deps.db, deps.sessionSecret, {
    https: deps.publicBaseUrl.startsWith('https:'),
  });

  scope.addHook('onSend', async (_request, reply) => {
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  scope.setErrorHandler(async (err: FastifyError | AppError | NotSignedIn, request, reply) => {
    if (err instanceof NotSignedIn) {
      if (request.headers['hx-request'])
        return reply.code(401).header('hx-redirect', '/console/login').send('');
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`/console/login${next}`, 303);
    }
    // A value the database refused (a date out of range, say) is the request's fault.
    const refused = isRefusedValue(err);
    if (refused) request.log.warn({ err }, 'the database refused a value of the request');
    const status =
      err instanceof AppError ? err.status : refused ? 400 : ((err as FastifyError).statusCode ?? 500);
    const known = status < 500;
    if (!known) request.log.error({ err }, 'console page failed');
    const words =
      err instanceof AppError && status === 404
        ? 'There is nothing here: it does not exist, or it is not yours.'
        : (err as FastifyError).code === 'FST_CSRF_INVALID_TOKEN' ||
            (err as FastifyError).code === 'FST_CSRF_MISSING_SECRET'
          ? 'This form had expired. Go back, reload the page and try again.'
          : known
            ? 'That request could not be understood.'
            : `Something went wrong on our side. Try again; if it keeps happening, tell your operator (reference ${request.id}).`;
    return reply
      .code(status >= 400 ? status : 500)
      .type('text/html')
      .send(
        page(
          'Error',
          html`<main class="narrow">
            <h1>${status === 404 ? 'Not found' : 'Sorry'}</h1>
            <p>${words}</p>
            <p><a href="/console/leads">Back to your leads</a></p>
          </main>`,
        ),
      );
  });

  scope.setNotFoundHandler(async (_request, reply) =>
    reply
      .code(404)
      .type('text/html')
      .send(
        page(
          'Not found',
          html`<main class="narrow">
            <h1>Not found</h1>
            <p>There is no such page in the console.</p>
            <p><a href="/console/leads">Back to your leads</a></p>
          </main>`,
        ),
      ),
  );

  scope.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = ASSETS[request.params.name];
    if (!asset) return reply.code(404).type('text/plain').send('Not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
  });
  scope.get('/', async (_request, reply) => reply.redirect('/console/today', 303));

  // Pages that share an admin route's schema say what is wrong in its words.
  scope.setSchemaErrorFormatter(validationError);
  registerLogin(scope, deps.db);
  registerTodayPage(scope, deps);
  registerLeadsPages(scope, deps);
  registerLeadPage(scope, deps);
  registerConversationPages(scope, deps);
  registerAgendaPage(scope, deps);
  registerSourcePages(scope, deps);
  registerCadencePages(scope, deps);
  registerListenPage(scope, deps);
  registerWorkPages(scope, deps);
  registerAgencyPages(scope, deps);
  registerReportPage(scope, deps);
}
