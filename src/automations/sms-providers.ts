import type { TwilioSettings } from '../config.ts';
import { post } from './post.ts';
import { TWILIO_FINAL_ERRORS } from './tables/twilio-errors.ts';

/**
 * A provider's refusal that sending again cannot change: the text fails at once, and a number
 * that unsubscribed (`optedOut`) is opted out as a STOP is.
 */
export class TextRefused extends Error {
  constructor(
    message: string,
    readonly optedOut: boolean,
  ) {
    super(message);
    this.name = 'TextRefused';
  }
}

/**
 * Where texts go. `recorder` (the default) sends nothing and keeps the text in the lead's history;
 * `http` POSTs `{to, body, lead_id}` to `SMS_WEBHOOK_URL`; `twilio` calls Twilio's Messages API
 * (`TWILIO_BASE_URL` lets tests point it at a local fake). Every text, whatever the provider, is
 * written to the lead's history by the sender.
 */
export interface SmsProvider {
  readonly name: 'recorder' | 'http' | 'twilio';
  /** Throws when the provider refuses or cannot be reached. */
  send(text: OutgoingText): Promise<{ id: string | null }>;
}

export interface OutgoingText {
  to: string;
  body: string;
  lead_id: string;
  /** The agent's own number (E.164); null: the provider's configured one. */
  from?: string | null;
  /** The text's row, for the provider's status callback to name. */
  status_key?: { agent_id: string; sms_id: string };
}

export interface SmsSettings {
  provider: 'recorder' | 'http' | 'twilio';
  webhookUrl?: string;
  twilio?: TwilioSettings;
  timeoutMs: number;
}

/** Twilio's JSON answer, or nothing when it is not JSON. */
function readAnswer(body: string): { sid?: string; message?: string; code?: number | string } {
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
          const { to, body, lead_id } = text;
          const res = await post(url, {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ to, body, lead_id, ...(text.from ? { from: text.from } : {}) }),
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
          const form = new URLSearchParams({ To: text.to, From: text.from ?? t.from, Body: text.body });
          if (t.statusCallbackUrl && text.status_key) {
            const key = new URLSearchParams({ agent: text.status_key.agent_id, sms: text.status_key.sms_id });
            form.set('StatusCallback', `${t.statusCallbackUrl}?${key.toString()}`);
          }
          const res = await post(url, {
            headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: form.toString(),
            timeoutMs: settings.timeoutMs,
            readBody: true,
          });
          const answer = readAnswer(res.body);
          if (res.status < 200 || res.status > 299) {
            const final = answer.code === undefined ? undefined : TWILIO_FINAL_ERRORS[String(answer.code)];
            if (final)
              throw new TextRefused(`Twilio ${answer.code}: ${final.words}`, final.optedOut === true);
            throw new Error(`Twilio answered ${res.status}${answer.message ? `: ${answer.message}` : ''}`);
          }
          return { id: answer.sid ?? null };
        },
      };
    }
  }
}
