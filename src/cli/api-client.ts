import { LIMITS } from '../limits.ts';
import { isJsonObject } from '../json.ts';
import { readFileSync } from 'node:fs';
import type { paths } from './admin-api.ts';
import { join, resolve } from 'node:path';

/** An error the CLI reports as one line on stderr, exiting 1. */
export class CliError extends Error {}

/** The admin API answered with an error body ({error, error_code, details?}). */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly error: string,
    readonly details: string | undefined,
  ) {
    super(`${errorCode}: ${error}${details ? ` (${details})` : ''}`);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The admin API's operations by path, the path without its `/v1/admin` prefix. */
type AdminPaths = { [P in keyof paths as P extends `/v1/admin${infer Rest}` ? Rest : never]: paths[P] };

/** The paths (`/agents/{agent_id}`) that have an operation of this method. */
export type AdminPath<M extends Method> = {
  [P in keyof AdminPaths]: AdminPaths[P][Lowercase<M> & keyof AdminPaths[P]] extends { responses: unknown }
    ? P
    : never;
}[keyof AdminPaths];

type Operation<M extends Method, P extends AdminPath<M>> = AdminPaths[P][Lowercase<M> & keyof AdminPaths[P]];

type PathInit<O> = O extends { parameters: { path: infer T } } ? { path: T } : { path?: never };
type QueryInit<O> = O extends { parameters: { query: infer T } }
  ? { query: T }
  : O extends { parameters: { query?: infer T } }
    ? { query?: T }
    : { query?: never };
type BodyInit<O> = O extends { requestBody?: never }
  ? { body?: never }
  : O extends { requestBody: { content: { 'application/json': infer B } } }
    ? { body: B }
    : O extends { requestBody?: { content: { 'application/json': infer B } } }
      ? { body?: B }
      : { body?: never };

/** What a request gives besides its method and path: path parameters, query and body, as documented. */
type RequestParts<O> = PathInit<O> & QueryInit<O> & BodyInit<O>;
/** The parts as the call's last argument, left out when every part is optional. */
type PartsArg<O> =
  Record<never, never> extends RequestParts<O> ? [parts?: RequestParts<O>] : [parts: RequestParts<O>];

/** An answer's JSON body (undefined for a 204), of whichever success the operation documents. */
type JsonBody<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type Success<O> = O extends { responses: infer R } ? R[Extract<keyof R, 200 | 201 | 202 | 204>] : never;

/** What the admin API answers to this method on this path, as its OpenAPI document describes it. */
export type AdminAnswer<M extends Method, P extends AdminPath<M>> = JsonBody<Success<Operation<M, P>>>;

/** The JSON body a request of this method on this path sends. */
export type AdminBody<M extends Method, P extends AdminPath<M>> = NonNullable<
  RequestParts<Operation<M, P>>['body']
>;

/** The query parameters a request of this method on this path takes. */
export type AdminQuery<M extends Method, P extends AdminPath<M>> = NonNullable<
  RequestParts<Operation<M, P>>['query']
>;

/**
 * The admin API, typed by the types generated from its OpenAPI document (admin-api.ts): a path,
 * parameter, body field or answer field the server renames no longer compiles here.
 */
export interface AdminClient {
  readonly baseUrl: string;
  request<M extends Method, P extends AdminPath<M>>(
    method: M,
    path: P,
    ...parts: PartsArg<Operation<M, P>>
  ): Promise<AdminAnswer<M, P>>;
  /** A GET answered as text: the report's CSV export, which the document describes as JSON only. */
  text<P extends AdminPath<'GET'>>(path: P, ...parts: PartsArg<Operation<'GET', P>>): Promise<string>;
}

interface LooseParts {
  path?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

const DEFAULT_URL = 'http://127.0.0.1:3000';

/**
 * An HTTP client of a running server's admin API. The key is read on the first request, so
 * `leadgate --help` works without one.
 */
export function createAdminClient(env: NodeJS.ProcessEnv): AdminClient {
  const baseUrl = serverUrl(env);
  let key: string | undefined;
  async function send(method: Method, template: string, parts: LooseParts = {}): Promise<unknown> {
    const { body } = parts;
    key ??= adminKey(env);
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${baseUrl}/v1/admin${fillPath(template, parts)}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(LIMITS.cliTimeoutMs),
      });
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError') {
        throw new CliError(`leadgate at ${baseUrl} did not answer within ${LIMITS.cliTimeoutMs / 1000} s`);
      }
      const reason = causeCode(err);
      throw new CliError(
        `cannot reach leadgate at ${baseUrl} — is \`npm start\` running?${reason ? ` (${reason})` : ''}`,
      );
    }
    const text = await res.text();
    if (res.status === 204) return undefined;
    // An export (the report's CSV) is text, given as it came.
    if (res.ok && res.headers.get('content-type')?.startsWith('text/csv')) return text;
    const parsed = parseJson(text);
    if (!res.ok) throw toApiError(res.status, parsed, text);
    if (parsed === undefined) throw new CliError(`unexpected answer from ${baseUrl}: ${text.slice(0, 200)}`);
    return parsed;
  }
  return {
    baseUrl,
    // The answer is trusted to be what the document says: the server's own schemas serialize it.
    request: async (method, path, ...[parts]) => (await send(method, path, parts)) as never,
    async text(path, ...[parts]) {
      const answer = await send('GET', path, parts);
      if (typeof answer !== 'string') throw new CliError(`unexpected answer from ${baseUrl}: not text`);
      return answer;
    },
  };
}

/** `/agents/{agent_id}/leads` with its parameters filled in (each a path segment, as typed by the user) and the query set. */
function fillPath(template: string, parts: LooseParts): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = parts.path?.[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parts.query ?? {}))
    if (value !== undefined) query.set(name, value);
  return query.size > 0 ? `${path}?${query.toString()}` : path;
}

/** LEADGATE_URL without a trailing slash; a PUBLIC_BASE_URL-style value ending in /v1 works too. */
export function serverUrl(env: NodeJS.ProcessEnv): string {
  const raw = env.LEADGATE_URL || DEFAULT_URL;
  let url: URL;
  // Never quoted back: a URL may carry a password, and stderr often lands in a CI log.
  try {
    url = new URL(raw);
  } catch {
    throw new CliError('LEADGATE_URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`LEADGATE_URL must start with http:// or https://, not ${url.protocol}//`);
  }
  if (url.username || url.password) {
    throw new CliError('LEADGATE_URL must not carry a user or password: the admin key is what signs in');
  }
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** ADMIN_API_KEY, else the key the server wrote to DATA_DIR/admin.key on first start. */
export function adminKey(env: NodeJS.ProcessEnv): string {
  if (env.ADMIN_API_KEY) return env.ADMIN_API_KEY;
  const file = join(resolve(env.DATA_DIR || 'data'), 'admin.key');
  let key = '';
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch {
    // reported below
  }
  if (!key) {
    throw new CliError(
      `no admin key: set ADMIN_API_KEY, or start the server once (npm start) so it writes ${file}`,
    );
  }
  return key;
}

function toApiError(status: number, parsed: unknown, text: string): CliError {
  if (isJsonObject(parsed)) {
    const { error_code, error, details } = parsed;
    if (typeof error_code === 'string') {
      return new ApiError(
        status,
        error_code,
        typeof error === 'string' ? error : `HTTP ${status}`,
        typeof details === 'string' ? details : undefined,
      );
    }
  }
  return new CliError(`HTTP ${status}: ${text.slice(0, 200) || 'no body'}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** fetch hides the socket error (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function causeCode(err: unknown): string | undefined {
  const cause: unknown = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? code : cause.message;
  }
  return undefined;
}
