/**
 * Which servers a `DATABASE_URL` names and which of them the gateway may use, read as libpq reads
 * its URL form: `postgres://u@db1:5432,db2:5432/leadgate?target_session_attrs=read-write`, each
 * host with its own port (5432 when left out), and `target_session_attrs` from the URL, else from
 * `PGTARGETSESSIONATTRS`, else `any`. node-postgres reads one host only, so each host becomes a
 * connection string of its own with everything else the URL says; a URL with one host is passed on
 * as it came (a Unix socket's `?host=` form included).
 */
export interface DatabaseUrl {
  /** One single-host connection string per host, in the URL's order. */
  hosts: string[];
  target: TargetSessionAttrs;
}

/**
 * `any`: the first host that answers. `read-write` (transaction_read_only off) and `primary` (not
 * in recovery): a server that can take writes, which for the gateway is the same thing. libpq's
 * other targets (`read-only`, `standby`, `prefer-standby`) name servers that cannot take a lead.
 */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';
const TARGETS: readonly string[] = ['any', 'read-write', 'primary'];

export function readDatabaseUrl(url: string, envTarget?: string): DatabaseUrl {
  const scheme = /^postgres(?:ql)?:\/\//.exec(url)?.[0];
  if (!scheme) throw new Error('it must start with postgres:// or postgresql://');
  const rest = url.slice(scheme.length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const tail = end < 0 ? '' : rest.slice(end);
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  const hostList = authority.slice(at + 1);

  const [path, query = ''] = splitOnce(tail, '?');
  const params = query.split('&').filter((p) => p !== '');
  const named = params.filter((p) => p.startsWith('target_session_attrs='));
  const given = named.length > 0 ? decodeURIComponent(named.at(-1)?.split('=')[1] ?? '') : envTarget || 'any';
  if (!TARGETS.includes(given)) {
    throw new Error(
      `target_session_attrs=${given} names servers that cannot take writes: use any, read-write or primary`,
    );
  }
  const kept = params.filter((p) => !p.startsWith('target_session_attrs='));
  const others = `${path}${kept.length > 0 ? `?${kept.join('&')}` : ''}`;

  const hosts = hostList.includes(',')
    ? hostList.split(',').map((entry) => `${scheme}${userinfo}${withPort(entry)}${others}`)
    : [`${scheme}${authority}${others}`];
  return { hosts, target: given as TargetSessionAttrs };
}

/** `db1`, `db1:5433`, `[::1]` or `[::1]:5433`, with libpq's default port where none is given. */
function withPort(entry: string): string {
  if (entry === '') throw new Error('a host in the list is empty');
  const hasPort = entry.startsWith('[') ? /\]:\d*$/.test(entry) : entry.includes(':');
  return hasPort ? entry : `${entry}:5432`;
}

function splitOnce(s: string, separator: string): [string, string?] {
  const i = s.indexOf(separator);
  return i < 0 ? [s] : [s.slice(0, i), s.slice(i + 1)];
}
