import { LIMITS } from '../limits.ts';
import { isJsonObject } from '../json.ts';
import { readFileSync } from 'node:fs';
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

export interface AdminClient {
  readonly baseUrl: string;
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

const DEFAULT_URL = 'http://127.0.0.1:3000';

/**
 * An HTTP client of a running server's admin API. The key is read on the first request, so
 * `leadgate --help` works without one.
 */
export function createAdminClient(env: NodeJS.ProcessEnv): AdminClient {
  const baseUrl = serverUrl(env);
  let key: string | undefined;
  return {
    baseUrl,
    async request<T>(
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      path: string,
      body?: unknown,
    ): Promise<T> {
      key ??= adminKey(env);
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await fetch(`${baseUrl}/v1/admin${path}`, {
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
      if (res.status === 204) return undefined as T;
      // An export (the report's CSV) is text, given as it came.
      if (res.ok && res.headers.get('content-type')?.startsWith('text/csv')) return text as T;
      const parsed = parseJson(text);
      if (!res.ok) throw toApiError(res.status, parsed, text);
      if (parsed === undefined)
        throw new CliError(`unexpected answer from ${baseUrl}: ${text.slice(0, 200)}`);
      return parsed as T;
    },
  };
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
