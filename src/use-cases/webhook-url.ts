import { GATEWAY_PATH } from '../gateway/routes.ts';

/**
 * The gateway's URL as a sender is given it: with the token in the path, or without one (the
 * token then goes in the x-source-token header). `publicBaseUrl` is PUBLIC_BASE_URL, which ends
 * in `/v1` as the gateway's path begins.
 */
export function webhookUrl(publicBaseUrl: string, token?: string): string {
  const url = `${publicBaseUrl}${GATEWAY_PATH.slice('/v1'.length)}`;
  return token === undefined ? url : `${url}/v/${token}`;
}
