import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findAgentLogin } from '../admin/agent-repository.ts';
import { DECOY_HASH, passwordMatches } from '../admin/passwords.ts';
import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/index.ts';
import { stripUnstorable } from '../ingest/sanitize.ts';
import { html } from './html.ts';
import { page } from './layout.ts';
import { csrfTokenFor } from './session.ts';

/**
 * Failed logins in the window, per email and per client address: 10 of either and the next try
 * is refused 429 without checking the password (the database counts, so it holds across processes).
 */
async function throttled(db: Queryable, email: string, ip: string): Promise<boolean> {
  const { rows } = await db.query<{ by_email: number; by_ip: number }>(
    `SELECT count(*) FILTER (WHERE lower(email) = lower($1))::int AS by_email,
            count(*) FILTER (WHERE ip = $2)::int AS by_ip
       FROM login_failures
      WHERE failed_at > now() - make_interval(secs => $3) AND (lower(email) = lower($1) OR ip = $2)`,
    [email, ip, LIMITS.loginFailureWindowMs / 1000],
  );
  const row = rows[0];
  return !!row && (row.by_email >= LIMITS.loginFailuresAllowed || row.by_ip >= LIMITS.loginFailuresAllowed);
}

async function recordFailure(
  db: Queryable,
  agentId: string | null,
  email: string,
  ip: string,
): Promise<void> {
  await db.query(`INSERT INTO login_failures (agent_id, email, ip) VALUES ($1, $2, $3)`, [
    agentId,
    email,
    ip,
  ]);
  await db.query(`DELETE FROM login_failures WHERE failed_at < now() - make_interval(secs => $1)`, [
    (LIMITS.loginFailureWindowMs / 1000) * 2,
  ]);
}

function loginForm(reply: FastifyReply, opts: { email?: string; error?: string; next?: string }) {
  const token = csrfTokenFor(reply);
  return page(
    'Log in',
    html`<main class="narrow">
      <h1>Leadgate console</h1>
      <p>Log in with the email and password your operator set for you.</p>
      ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
      <form method="post" action="/console/login" class="stack">
        <input type="hidden" name="_csrf" value="${token}" />
        <input type="hidden" name="next" value="${opts.next ?? ''}" />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value="${opts.email ?? ''}"
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Log in</button>
      </form>
    </main>`,
  );
}

/** Only a path inside the console may be gone back to after login (no open redirect). */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/console(\/[\w\-/?=&%.]*)?$/.test(next) && !next.startsWith('//')
    ? next
    : '/console/today';
}

export function registerLogin(scope: FastifyInstance, db: Queryable): void {
  scope.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
    if (request.session.get('agentId')) return reply.redirect('/console/today', 303);
    return reply.type('text/html').send(loginForm(reply, { next: safeNext(request.query.next) }));
  });

  scope.post<{ Body: { email?: unknown; password?: unknown; next?: unknown } }>(
    '/login',
    { preHandler: scope.csrfProtection },
    async (
      request: FastifyRequest<{ Body: { email?: unknown; password?: unknown; next?: unknown } }>,
      reply,
    ) => {
      // A post with no body at all (its CSRF token in a header) has none of them.
      const body = (request.body ?? {}) as { email?: unknown; password?: unknown; next?: unknown };
      // An email no account can have (a NUL in it) is a failed login, never a query PostgreSQL refuses.
      const sent = typeof body.email === 'string' ? body.email : '';
      const email = stripUnstorable(sent) === sent ? sent.trim().slice(0, LIMITS.emailMaxLength) : '';
      const password =
        typeof body.password === 'string' ? body.password.slice(0, LIMITS.passwordMaxLength) : '';
      const next = safeNext(body.next);
      if (await throttled(db, email, request.ip)) {
        return reply
          .code(429)
          .header('retry-after', String(LIMITS.loginFailureWindowMs / 1000))
          .type('text/html')
          .send(
            loginForm(reply, {
              email,
              next,
              error: 'Too many failed logins. Wait 15 minutes and try again.',
            }),
          );
      }
      const login = email ? await findAgentLogin(db, email) : null;
      // An unknown email costs the same hashing as a wrong password: no timing hint of who has a login.
      const ok = await passwordMatches(login?.password_hash ?? DECOY_HASH, password);
      if (!login?.password_hash || !ok) {
        await recordFailure(db, login?.agent_id ?? null, email, request.ip);
        return reply
          .code(401)
          .type('text/html')
          .send(loginForm(reply, { email, next, error: 'That email and password do not match.' }));
      }
      await request.session.regenerate(); // a new id at login: a planted session id is useless
      request.session.set('agentId', login.agent_id);
      return reply.redirect(next, 303);
    },
  );

  scope.post('/logout', { preHandler: scope.csrfProtection }, async (request, reply) => {
    await request.session.destroy();
    return reply.redirect('/console/login', 303);
  });
}
