/**
 * Where texts go. `recorder` (the default) sends nothing and keeps the text in the lead's history;
 * `http` POSTs `{to, body, lead_id}` to `SMS_WEBHOOK_URL`; `twilio` calls Twilio's Messages API
 * (`TWILIO_BASE_URL` lets tests point it at a local fake). Every text, whatever the provider, is
 * written to the lead's history by the sender.
 */
export interface SmsProvider {
  readonly name: 'recorder' | 'http' | 'twilio';
  /** Throws when the provider refuses or cannot be reached. */
  send(text: { to: string; body: string; lead_id: string }): Promise<{ id: string | null }>;
}

export interface SmsSettings {
  provider: 'recorder' | 'http' | 'twilio';
  webhookUrl?: string;
  twilio?: { accountSid: string; authToken: string; from: string; baseUrl: string };
  timeoutMs: number;
}

export function createSmsProvider(settings: SmsSettings): SmsProvider {
  switch (settings.provider) {
    case 'recorder':
      return { name: 'recorder', send: async () => ({ id: null }) };
    case 'http': {
      const url = settings.webhookUrl;
      if (!url) throw new Error('SMS_PROVIDER=http needs SMS_WEBHOOK_URL');
      return {
        name: 'http',
        async send(text) {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(text),
            signal: AbortSignal.timeout(settings.timeoutMs),
          });
          if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`);
          return { id: null };
        },
      };
    }
    case 'twilio': {
      const t = settings.twilio;
      if (!t)
        throw new Error('SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM');
      const url = `${t.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(t.accountSid)}/Messages.json`;
      const auth = Buffer.from(`${t.accountSid}:${t.authToken}`).toString('base64');
      return {
        name: 'twilio',
        async send(text) {
          const res = await fetch(url, {
            method: 'POST',
            headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ To: text.to, From: t.from, Body: text.body }).toString(),
            signal: AbortSignal.timeout(settings.timeoutMs),
          });
          const answer = (await res.json().catch(() => ({}))) as { sid?: string; message?: string };
          if (!res.ok)
            throw new Error(`Twilio answered ${res.status}${answer.message ? `: ${answer.message}` : ''}`);
          return { id: answer.sid ?? null };
        },
      };
    }
  }
}
