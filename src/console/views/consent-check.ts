import { when } from '../format.ts';
import { html, type Html } from '../html.ts';

const PROVIDERS: Record<string, string> = { trustedform: 'TrustedForm', jornaya: 'Jornaya' };

/**
 * The check of the lead's consent evidence its source asks for (docs/consent-and-revocation.md),
 * in words: while pending and once failed, automatic texts and calls wait or are blocked, and the
 * agent must see why. Nothing when the source asks no check.
 */
export function consentCheck(check: unknown, zone: string): Html | string {
  if (!check || typeof check !== 'object') return '';
  const c = check as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const by = PROVIDERS[text(c.provider) ?? ''];
  const provider = by ? ` by ${by}` : '';
  const checkedAt = text(c.checked_at);
  const expiresAt = text(c.expires_at);
  const outcome = (): Html => {
    switch (c.status) {
      case 'verified':
        return html`<span class="status ok">Verified${provider}</span>`;
      case 'present':
        return html`<span class="status ok">Present</span> (the source asks for evidence, not a check)`;
      case 'failed':
        return html`<span class="status bad">Failed${provider}: ${text(c.reason) ?? 'no reason given'}</span>
          · no automatic texts or calls`;
      default:
        return html`<span class="status">Being checked${provider}</span> · automatic texts and calls wait for
          it`;
    }
  };
  return html`<dl class="fields">
    <dt>Checked</dt>
    <dd>
      ${outcome()}${checkedAt ? html` · ${when(checkedAt, zone)}` : ''}${
        expiresAt ? html` · kept until ${when(expiresAt, zone)}` : ''
      }
    </dd>
  </dl>`;
}
