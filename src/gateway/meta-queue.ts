import type { Gateway } from './gateway.ts';
import { queueMetaLeads } from './meta-lead-repository.ts';
import { verifyMetaSignature, type AnnouncedLead } from './meta-envelope.ts';
import { rejected, type DeliveryResult } from './result.ts';
import { onDatabaseWord, UNCONFIRMED, type SourceClaim, type Unconfirmed } from './source-directory.ts';
import { failedWrite } from './write-delivery.ts';

/**
 * Meta's leadgen envelope (decision 0061): checked against `X-Hub-Signature-256` with the source's
 * app secret (a source without one refuses every envelope), then one job per announced lead is
 * queued and the answer given at once: Meta retries an answer that is slow. The insert checks the
 * token itself; a refusal is given only on the database's word, since the secret it was checked
 * with may be one the agent has replaced.
 */
export async function queueMetaEnvelope(
  gateway: Gateway,
  claim: SourceClaim,
  leads: AnnouncedLead[],
  request: { rawBody: Buffer | undefined; hubSignatureHeader: string | string[] | undefined },
): Promise<DeliveryResult | Unconfirmed> {
  const { source } = claim;
  const sealed = source.meta_app_secret;
  const secret =
    sealed === null
      ? null
      : gateway.secrets.open(sealed, { source_id: source.source_id, purpose: 'meta_app_secret' });
  const signed =
    secret !== null &&
    verifyMetaSignature(request.hubSignatureHeader, request.rawBody ?? new Uint8Array(), secret);
  if (!signed) {
    const why =
      sealed === null
        ? 'The source has no Meta app secret set'
        : secret === null
          ? 'The source’s Meta app secret cannot be opened with this server’s SECRETS_KEY'
          : 'X-Hub-Signature-256 is missing or does not match the app secret';
    return onDatabaseWord(claim, async () => rejected('INVALID_SIGNATURE', why));
  }
  try {
    const queued = await queueMetaLeads(gateway.db, claim, leads);
    if (queued === null) return UNCONFIRMED;
    if (queued > 0) gateway.metaQueued();
    return { kind: 'queued', leadgenIds: leads.map((l) => l.leadgen_id) };
  } catch (err) {
    return failedWrite(err);
  }
}
