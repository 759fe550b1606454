import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Whether a destination URL may be called. Only http(s); and unless the operator allows it
 * (`ALLOW_PRIVATE_DESTINATIONS=true`), every address the host resolves to must be public: a
 * destination on a private, loopback or link-local network would let anyone with an admin key make
 * the gateway call inside its own network. Checked when a destination is added and again before
 * every delivery (the DNS answer may change).
 */
export async function checkDestinationUrl(
  raw: string,
  allowPrivate: boolean,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'url must be http or https' };
  if (url.username || url.password) return { ok: false, reason: 'url must not carry credentials' };
  if (allowPrivate) return { ok: true };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return { ok: false, reason: `the host ${host} does not resolve` };
  }
  const blocked = addresses.find((address) => !isPublic(address));
  return blocked
    ? { ok: false, reason: `the host resolves to a non-public address (${blocked})` }
    : { ok: true };
}

function isPublic(address: string): boolean {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}
