import { gathered } from '../db/gathered.ts';
import type { JobKind } from '../jobs/runner.ts';
import { LIMITS } from '../limits.ts';
import type { Database } from '../db/index.ts';
import { consentHolds } from './consent-repository.ts';
import { contactRule, nextAllowedInstant } from './contact-window.ts';
import { getFollowUpLeads, type FollowUpLead } from './follow-up-leads.ts';
import { leadZone } from './lead-zone.ts';
import { screenContact } from './screen-contact.ts';
import {
  agentPhoneKey,
  finishText,
  textJobs,
  heldForAgent,
  HELD_FOR_AGENT,
  recordSentTexts,
  type ClaimedText,
  type HandedText,
  type SentText,
} from './sms-repository.ts';
import { TextRefused, type SmsProvider } from './sms-providers.ts';
import { recordOptOut } from './opt-out-repository.ts';

const MAX_ATTEMPTS = 3;

/** How an opt-out the provider reports reads: the prospect's STOP to that sender. */
const PROVIDER_STOP = { by: 'keyword', keyword: 'STOP', language: 'en' } as const;

export interface TextRound {
  sent: number;
  failed: number;
  suppressed: number;
  deferred: number;
}

/**
 * Of a round of `batch` texts, how many its hand may fill: the round always claims at least a
 * quarter from the table, so a steady stream of handed texts never starves the texts waiting there
 * (calling hours, retries).
 */
export const fromHand = (batch: number): number => batch - Math.ceil(batch / 4);

export interface TextSettings {
  batch: number;
  leaseMs: number;
  concurrency: number;
}

/**
 * Texts as a kind of job. A round sends the texts whose time has come: those it claims (due longer,
 * so sent first), and those the fan-out of this worker wrote already claimed and put in its `hand`.
 * At the moment of sending it checks again what may have changed since the text was scheduled: an
 * opt-out or the number's screening (a list it was added to, a registry gone stale: the text is
 * suppressed, with the reason) and the prospect's calling hours (outside them it waits for the next
 * allowed minute). A text that fails is tried again a minute later, three times in all. Every text
 * sent is written to the lead's history.
 *
 * Up to `concurrency` numbers are texted at once (a provider answers in a few hundred ms; one at a
 * time, a burst of new leads would wait minutes for their first text); the texts to one number go
 * one after the other, in the order they were due.
 */
export function textKind(
  provider: SmsProvider,
  settings: TextSettings,
  hand: HandedText[],
): JobKind<ClaimedText, TextRound> {
  return {
    name: 'texts',
    queue: textJobs,
    batch: () => settings.batch - Math.min(hand.length, fromHand(settings.batch)),
    async handle(db, claimed, at) {
      const now = at ?? new Date();
      // A handed text is sent only while half its lease is left: after that it is the queue's, and
      // another worker may claim it while this one is still sending.
      const handed = hand
        .splice(0, fromHand(settings.batch))
        .filter((t) => t.lease_until.getTime() - settings.leaseMs / 2 > now.getTime());
      return sendTexts(db, provider, [...claimed, ...handed], now, settings.concurrency);
    },
    backlog: () => hand.length >= fromHand(settings.batch),
  };
}

async function sendTexts(
  db: Database,
  provider: SmsProvider,
  texts: ReadonlyArray<ClaimedText | HandedText>,
  now: Date,
  concurrency: number,
): Promise<TextRound> {
  const round: TextRound = { sent: 0, failed: 0, suppressed: 0, deferred: 0 };
  const leads = await getFollowUpLeads(
    db,
    texts.flatMap((t) => ('lead' in t ? [] : [t.lead_id])),
  );
  for (const t of texts) if ('lead' in t) leads.set(t.lead_id, t.lead);
  const byNumber = new Map<string, ClaimedText[]>();
  for (const t of texts) {
    const key = agentPhoneKey(t.agent_id, t.to_phone);
    const same = byNumber.get(key);
    if (same) same.push(t);
    else byNumber.set(key, [t]);
  }
  const queue = [...byNumber.values()];
  const asks = roundTrips(db, now);
  const sender = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      for (const text of next) round[await sendOne(asks, provider, text, leads.get(text.lead_id), now)]++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, sender));
  return round;
}

/**
 * What the senders of a round ask the database, text by text, gathered: the questions and records
 * of texts being sent at the same moment share a round trip (db/gathered.ts), so a round of 200
 * texts makes a few dozen statements instead of 400, and each text is still asked about just
 * before it is sent and recorded as soon as the provider took it.
 */
function roundTrips(db: Database, now: Date) {
  return {
    db,
    /** Why the text may not go now, or null (screening: the opt-out, the lists, the registry). */
    blocked: gathered(async (texts: Array<{ t: ClaimedText; lead: FollowUpLead | undefined }>) => {
      const decisions = await screenContact(
        db,
        texts.map(({ t, lead }) => ({ ...lead, agent_id: t.agent_id, phone: t.to_phone })),
        now,
      );
      return decisions.map((d) => d.text);
    }),
    /** Whether the prospect asked about when to contact in a reply the agent has not read. */
    held: gathered(async (texts: ClaimedText[]) => {
      const held = await heldForAgent(
        db,
        texts.map((t) => ({ agent_id: t.agent_id, phone: t.to_phone })),
      );
      return texts.map((t) => held.has(agentPhoneKey(t.agent_id, t.to_phone)));
    }),
    /** What holds the text's lead for its consent evidence (consent-repository.ts), if anything. */
    consent: gathered(async (texts: ClaimedText[]) => {
      const holds = await consentHolds(db, texts, now);
      return texts.map((t) => holds.get(`${t.agent_id} ${t.lead_id}`));
    }),
    recordSent: gathered(async (sent: SentText[]) => {
      await recordSentTexts(db, sent);
      return sent.map(() => undefined);
    }),
  };
}

async function sendOne(
  { db, blocked, held, consent, recordSent }: ReturnType<typeof roundTrips>,
  provider: SmsProvider,
  t: ClaimedText,
  lead: FollowUpLead | undefined,
  now: Date,
): Promise<keyof TextRound> {
  // Asked text by text, just before sending: a STOP that came a moment ago, or a number added to
  // a list since the text was scheduled, still counts. The confirmation of a STOP is the one text
  // that goes to an opted-out number, at once.
  const confirmation = t.kind === 'opt_out_confirmation';
  // The agent's own answer: its hours were decided when it was written (it may answer a prospect
  // who wrote at any hour), and the agent, not a consent check, chose to send it.
  const answer = t.kind === 'agent';
  const reason = confirmation ? null : await blocked({ t, lead });
  if (reason !== null) {
    await finishText(db, {
      job: t,
      status: 'suppressed',
      error: reason === 'opted_out' ? 'opted out' : reason,
    });
    return 'suppressed';
  }
  // An automatic text waits while the prospect's reply about when to contact is unread.
  if (!confirmation && !answer && (await held(t))) {
    const later = new Date(now.getTime() + LIMITS.heldTextRecheckMs);
    await finishText(db, { job: t, status: 'scheduled', error: HELD_FOR_AGENT, due: later });
    return 'deferred';
  }
  // A lead whose source asks for verified consent waits for the check, and never goes past it.
  const hold = confirmation || answer ? undefined : await consent(t);
  if (hold && 'failed' in hold) {
    await finishText(db, { job: t, status: 'suppressed', error: `consent ${hold.failed}` });
    return 'suppressed';
  }
  if (hold) {
    await finishText(db, { job: t, status: 'scheduled', error: 'waiting for consent', due: hold.wait_until });
    return 'deferred';
  }
  const state = typeof lead?.state === 'string' ? lead.state : null;
  const allowedAt = nextAllowedInstant(now, leadZone(lead ?? {}, t.agent_timezone), contactRule(state));
  if (!confirmation && !answer && allowedAt.getTime() > now.getTime()) {
    await finishText(db, { job: t, status: 'scheduled', error: 'outside calling hours', due: allowedAt });
    return 'deferred';
  }
  try {
    const { id } = await provider.send({
      to: `+1${t.to_phone}`,
      body: t.body,
      lead_id: t.lead_id,
      from: t.sms_from ?? null,
      status_key: { agent_id: t.agent_id, sms_id: t.sms_id },
    });
    await recordSent({
      t,
      sent: { provider: provider.name, provider_id: id },
      history: {
        agent_id: t.agent_id,
        lead_id: t.lead_id,
        source_id: null,
        event: 'sms_sent',
        details: { sms_id: t.sms_id, to: t.to_phone, body: t.body, provider: provider.name, provider_id: id },
      },
    });
    return 'sent';
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    if (err instanceof TextRefused && err.optedOut) {
      await db.withTransaction(async (tx) => {
        await recordOptOut(tx, t.to_phone, PROVIDER_STOP, now, { words: error, confirmation: 'provider' });
        await finishText(tx, { job: t, status: 'suppressed', error: `opted out (${error})` });
      });
      return 'suppressed';
    }
    if (err instanceof TextRefused || t.attempts >= MAX_ATTEMPTS) {
      await finishText(db, { job: t, status: 'failed', error });
      return 'failed';
    }
    await finishText(db, { job: t, status: 'scheduled', error, due: new Date(now.getTime() + 60_000) });
    return 'deferred';
  }
}
