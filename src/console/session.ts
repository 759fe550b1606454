import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifySession from '@fastify/session';
import { settingMadeOnce, type Queryable } from '../db/index.ts';
import { LIMITS } from '../limits.ts';

declare module 'fastify' {
  interface Session {
    /** The agent logged in on this session. */
    agentId?: string;
  }
}

/**
 * The secret that signs console cookies: SESSION_SECRET when set, else one generated on first
 * start and kept in the database, so every gateway process on it (and every restart) shares it.
 */
export async function sessionSecret(db: Queryable, configured: string | undefined): Promise<string> {
  return configured ?? settingMadeOnce(db, 'session_secret', () => randomBytes(32).toString('hex'));
}

type Callback = (err?: unknown) => void;
interface StoredSession {
  agentId?: string;
  cookie?: { expires?: string | Date | null; originalMaxAge?: number | null };
}

/**
 * What the database keeps of a session id: its SHA-256, as of source tokens and agent keys. The id
 * itself is only in the agent's cookie, so a copy of the database (a backup, say) opens no session.
 */
export function sessionKey(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/**
 * Sessions live in the database, not in the cookie or in memory: logout and a password change end
 * them in every process at once. Only logged-in sessions are stored (the cookie holds the signed id),
 * each under its id's hash.
 */
function databaseStore(db: Queryable) {
  return {
    set(sessionId: string, session: StoredSession, callback: Callback) {
      if (!session.agentId) {
        callback();
        return;
      }
      const expires = session.cookie?.expires
        ? new Date(session.cookie.expires)
        : new Date(Date.now() + LIMITS.sessionMaxAgeMs);
      db.query(
        `INSERT INTO console_sessions (agent_id, session_id, data, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (session_id) DO UPDATE SET data = EXCLUDED.data, expires_at = EXCLUDED.expires_at`,
        [session.agentId, sessionKey(sessionId), JSON.stringify(session), expires.toISOString()],
      ).then(() => callback(), callback);
    },
    get(sessionId: string, callback: (err: unknown, session?: StoredSession | null) => void) {
      db.query<{ data: StoredSession | string }>(
        `SELECT data FROM console_sessions WHERE session_id = $1 AND expires_at > now()`,
        [sessionKey(sessionId)],
      ).then(({ rows }) => {
        const data = rows[0]?.data;
        callback(
          null,
          data === undefined ? null : typeof data === 'string' ? (JSON.parse(data) as StoredSession) : data,
        );
      }, callback);
    },
    destroy(sessionId: string, callback: Callback) {
      db.query(`DELETE FROM console_sessions WHERE session_id = $1 OR expires_at < now()`, [
        sessionKey(sessionId),
      ]).then(() => callback(), callback);
    },
  };
}

/**
 * Whom a CSRF token is made for: a logged-in session (by its id's hash), or nobody yet (the login
 * form). A token is accepted only for the same, so a token and cookie taken from the login page or
 * from another session cannot post for an agent's session.
 */
function csrfUser(request: FastifyRequest): string {
  return request.session.get('agentId') ? sessionKey(request.session.sessionId) : 'signed-out';
}

/** A CSRF token for this request's forms, bound to its session (csrfUser). */
export function csrfTokenFor(reply: FastifyReply): string {
  return reply.generateCsrf({ userInfo: csrfUser(reply.request) });
}

/**
 * Cookies, sessions, CSRF and form bodies for the console scope. The session cookie is signed,
 * HTTP-only, SameSite=Lax; limited to /console and Secure whenever the request came over HTTPS, or
 * `__Host-` and always Secure where the server is served over HTTPS.
 * CSRF tokens (double-submit, the secret in a signed cookie) guard every state-changing form.
 */
export async function installSessions(
  scope: FastifyInstance,
  db: Queryable,
  secret: string,
  opts: { https: boolean },
): Promise<void> {
  // Served over HTTPS (PUBLIC_BASE_URL): `__Host-` cookies, which a browser keeps only if they are
  // Secure, for the whole host (Path=/) and set by the host itself, so no sibling subdomain or
  // plain-HTTP page can plant or overwrite them.
  const prefix = opts.https ? '__Host-' : '';
  const cookie = opts.https
    ? { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: true }
    : { path: '/console', httpOnly: true, sameSite: 'lax' as const, secure: 'auto' as const };
  await scope.register(fastifyCookie, { secret });
  await scope.register(fastifySession, {
    secret,
    cookieName: `${prefix}leadgate_session`,
    cookie: { ...cookie, maxAge: LIMITS.sessionMaxAgeMs },
    store: databaseStore(db) as never,
    saveUninitialized: false,
    rolling: false,
  });
  await scope.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: `${prefix}leadgate_csrf`,
    cookieOpts: { ...cookie, signed: true },
    getUserInfo: csrfUser,
    csrfOpts: { hmacKey: secret },
  });
  await scope.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
}

/** Ended console sessions and login failures older than two throttle windows, deleted. */
export async function purgeEndedSessions(db: Queryable): Promise<void> {
  await db.query('DELETE FROM console_sessions WHERE expires_at < now()');
  await db.query('DELETE FROM login_failures WHERE failed_at < now() - make_interval(secs => $1)', [
    (LIMITS.loginFailureWindowMs / 1000) * 2,
  ]);
}
