import { isJsonObject, own, type JsonObject } from '../json.ts';

/** What the Graph API said of one lead. */
export type GraphAnswer =
  | { kind: 'lead'; lead: JsonObject }
  /** Error 190: the page access token expired or was revoked; retrying cannot help. */
  | { kind: 'token_refused'; error: string }
  | { kind: 'failed'; error: string };

/** The Graph API's code for an access token that is expired, revoked or otherwise invalid. */
const INVALID_TOKEN = 190;

/**
 * `GET {graphUrl}/{leadgen_id}?access_token=…`: the lead as the Graph API keeps it (`id`,
 * `created_time`, `field_data`). Never throws; an error's words never carry the URL, which holds
 * the token. A redirect is not followed: the token would go wherever it points.
 */
export async function fetchGraphLead(
  graphUrl: string,
  leadgenId: string,
  accessToken: string,
  timeoutMs: number,
): Promise<GraphAnswer> {
  const url = `${graphUrl}/${encodeURIComponent(leadgenId)}?access_token=${encodeURIComponent(accessToken)}`;
  let status: number;
  let text: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    status = res.status;
    text = await res.text();
  } catch (err) {
    return { kind: 'failed', error: `no answer from the Graph API (${reason(err)})` };
  }
  const body = parse(text);
  const error = isJsonObject(body) ? own(body, 'error') : undefined;
  if (status < 200 || status >= 300 || isJsonObject(error)) {
    const code = isJsonObject(error) ? own(error, 'code') : undefined;
    const words = `the Graph API answered ${status}${typeof code === 'number' ? ` (error ${code})` : ''}`;
    return code === INVALID_TOKEN
      ? { kind: 'token_refused', error: words }
      : { kind: 'failed', error: words };
  }
  if (!isJsonObject(body) || !Array.isArray(own(body, 'field_data')))
    return { kind: 'failed', error: 'the Graph API answered without field_data' };
  return { kind: 'lead', lead: body };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Why a request got no answer, in words that cannot hold the URL (a timeout, a refused connection). */
function reason(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'timed out';
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : 'connection failed';
}
