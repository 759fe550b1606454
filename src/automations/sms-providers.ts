import { post } from './post.ts';

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

/** Twilio's JSON answer, or nothing when it is not JSON. */
function readAnswer(body: string): { sid?: string; message?: string } {
  try {
    const answer: unknown = JSON.parse(body);
    return answer && typeof answer === 'object' ? (answer as { sid?: string; message?: string }) : {};
  } catch {
    return {};
  }
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
          const res = await post(url, {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(text),
            timeoutMs: settings.timeoutMs,
          });
          if (res.status < 200 || res.status > 299) throw new Error(`SMS webhook answered ${res.status}`);
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
          const res = await post(url, {
            headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ To: text.to, From: t.from, Body: text.body }).toString(),
            timeoutMs: settings.timeoutMs,
            readBody: true,
          });
          const answer = readAnswer(res.body);
          if (res.status < 200 || res.status > 299)
            throw new Error(`Twilio answered ${res.status}${answer.message ? `: ${answer.message}` : ''}`);
          return { id: answer.sid ?? null };
        },
      };
    }
  }
}
