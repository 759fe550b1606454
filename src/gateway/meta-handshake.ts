import { matchesHash } from '../sources/secrets.ts';
import { isWellFormedToken } from '../sources/tokens.ts';
import { rejected, type DeliveryResult } from './result.ts';
import type { SourceDirectory } from './source-directory.ts';

/** A GET's query string as Fastify parses it: a repeated parameter is a list. */
type Query = Record<string, string | string[] | undefined>;

/**
 * Meta's webhook verification: `GET …/v/<TOKEN>?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`
 * is answered with the challenge when the token names an active source whose verify token is the
 * one sent (compared by hash, in constant time), and refused otherwise, without the challenge. Null:
 * the GET is no handshake (it stays 405). The database's word on the token: a handshake is rare.
 */
export async function answerHandshake(
  directory: SourceDirectory,
  token: string,
  query: Query,
): Promise<DeliveryResult | null> {
  if (single(query['hub.mode']) !== 'subscribe') return null;
  const claim = isWellFormedToken(token.trim()) ? await directory.confirm(token.trim()) : null;
  if (!claim) return rejected('INVALID_SOURCE_TOKEN');
  if (!matchesHash(single(query['hub.verify_token']), claim.source.meta_verify_token_hash))
    return rejected(
      'INVALID_VERIFY_TOKEN',
      'hub.verify_token is missing or is not the source’s verify token',
    );
  return { kind: 'challenge', challenge: single(query['hub.challenge']) ?? '' };
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
