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
  const blocked = addresses.find((address) => !isPublicAddress(address));
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
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    const first = addresses[0];
    if (blocked || !first) {
      callback(Object.assign(new Error(nonPublic(blocked?.address ?? 'none')), { code: 'ENONPUBLIC' }), '');
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};

// A developer testing against a local receiver needs the switch's name, not just the refusal.
const nonPublic = (address: string) =>
  `the host resolves to a non-public address (${address}); to send to a private network (a receiver on this machine, say), start the server with ALLOW_PRIVATE_DESTINATIONS=true`;

/** IPv6's global unicast block: every other IPv6 address is special-purpose or unassigned. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an address is public: IPv4 in no special range (after unwrapping an IPv4-mapped IPv6
 * one), or IPv6 in 2000::/3 in no special range (6to4, Teredo, NAT64, documentation …). So the
 * forms that reach IPv4 hosts another way (`::127.0.0.1`, `::7f00:1`, `64:ff9b::a00:1`,
 * `2002:a00:1::`) and everything local (loopback, private, link-local, unique-local) are not.
 * The one classifier for a destination added and for the address a connection is made to.
 */
export function isPublicAddress(address: string): boolean {
  // In hexadecimal first, as a URL or a connection has it: ipaddr.js reads `::8.8.8.8` (IPv4-
  // compatible) as if it were `::ffff:8.8.8.8` (IPv4-mapped).
  const text = address.includes('.') && address.includes(':') ? hexIPv6(address) : address;
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.process(text);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.range() === 'unicast' && parsed.match(GLOBAL_UNICAST);
}

function hexIPv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}
