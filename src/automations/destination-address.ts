import { lookup as dnsLookup } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether a destination URL may be called. Only http(s), no credentials; and unless the operator
 * allows it (`ALLOW_PRIVATE_DESTINATIONS=true`), every address the host resolves to must be public:
 * a destination on a private, loopback or link-local network would let anyone with an admin key
 * make the gateway call inside its own network. Checked in full (DNS included) when a destination
 * is added. Before each delivery the dispatcher checks the URL without `resolve`: a host name is
 * then checked where it matters, when a connection is made to it (`publicOnlyLookup`), so a DNS
 * answer that changed since is caught, and no delivery waits on a lookup of its own.
 */
export async function checkDestinationUrl(
  raw: string,
  allowPrivate: boolean,
  opts: { resolve?: boolean } = {},
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
  if (!ipaddr.isValid(host) && opts.resolve === false) return { ok: true };
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return { ok: false, reason: `the host ${host} does not resolve` };
  }
  const blocked = addresses.find((address) => !isPublic(address));
  return blocked ? { ok: false, reason: nonPublic(blocked) } : { ok: true };
}

/**
 * A DNS lookup for outbound connections that refuses a host with any non-public address: the
 * address checked is the one connected to (no window between a check and the connection's own
 * lookup for the answer to change in).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, '');
      return;
    }
    const blocked = addresses.find((a) => !isPublic(a.address));
    const first = addresses[0];
    if (blocked || !first) {
      callback(Object.assign(new Error(nonPublic(blocked?.address ?? 'none')), { code: 'ENONPUBLIC' }), '');
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};

const nonPublic = (address: string) => `the host resolves to a non-public address (${address})`;

function isPublic(address: string): boolean {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}
