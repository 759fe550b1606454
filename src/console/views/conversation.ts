import type { Conversation, ThreadMessage } from '../../conversations/thread-repository.ts';
import { LIMITS } from '../../limits.ts';
import { phone, when } from '../format.ts';
import { html, type Html } from '../html.ts';
import { dataTable, postForm } from './components.ts';

/** How the open pages follow new texts: htmx asks again every 2 s. */
export const LIVE = 'every 2s';

/** What a prospect's text meant, as the agent reads it at a glance. */
const INTENTS: Record<string, Html | string> = {
  contact_limits: html`<span class="status">asks about when to contact</span>`,
  opt_out: html`<span class="status bad">opted out</span>`,
  reply: '',
};

/** Who wrote an outbound text, and what became of it. */
function outboundMeta(m: ThreadMessage, zone: string): string {
  const who = m.by === 'agent' ? 'You' : 'Automatic text';
  const what =
    m.status === 'sent' || m.status === 'delivered'
      ? m.status
      : `${m.status}${m.error ? `: ${m.error}` : ''}`;
  return `${who} · ${when(m.at, zone)} · ${what}`;
}

/** The messages of a lead's thread, oldest first (the page's, and the poll's fragment). */
export function threadMessages(messages: readonly ThreadMessage[], zone: string): Html {
  if (messages.length === 0)
    return html`<p class="empty">No texts yet: the prospect’s replies and your answers appear here.</p>`;
  return html`<ol class="thread">
    ${messages.map((m) =>
      m.direction === 'inbound'
        ? html`<li class="msg in${m.read ? '' : ' unread'}">
            <p class="body">${m.body || '(an empty text)'}</p>
            <p class="meta">Prospect · ${when(m.at, zone)} ${INTENTS[m.intent ?? 'reply'] ?? ''}</p>
          </li>`
        : html`<li class="msg out">
            <p class="body">${m.body}</p>
            <p class="meta">${outboundMeta(m, zone)}</p>
          </li>`,
    )}
  </ol>`;
}

/** Why the agent cannot text this lead, or null when it can. */
export type TextBlock = 'opted_out' | 'no_phone' | null;

/** The lead page's Messages: the live thread, and the box to answer (or why there is none). */
export function threadSection(d: {
  lead_id: string;
  messages: readonly ThreadMessage[];
  zone: string;
  csrf: string;
  block: TextBlock;
}): Html {
  const base = `/console/leads/${d.lead_id}`;
  return html`<section aria-labelledby="msg-h" id="messages" class="card">
    <h2 id="msg-h">Messages</h2>
    <div id="thread" hx-get="${base}/thread" hx-trigger="${LIVE}" hx-swap="innerHTML" aria-live="polite">
      ${threadMessages(d.messages, d.zone)}
    </div>
    ${
      d.block === 'opted_out'
        ? html`<p class="muted">The number opted out or is marked do not contact: no texts can go to it.</p>`
        : d.block === 'no_phone'
          ? html`<p class="muted">The lead has no phone number to text.</p>`
          : postForm(
              d.csrf,
              `${base}/messages`,
              html`<label for="answer">Text the prospect</label>
                <textarea
                  id="answer"
                  name="body"
                  rows="3"
                  maxlength="${LIMITS.answerMaxLength}"
                  required
                ></textarea>
                <button type="submit">Send text</button>`,
              'stack answer',
            )
    }
  </section>`;
}

/** The rows of the inbox: each lead that wrote, unread first (the page's, and the poll's fragment). */
export function inboxRows(conversations: readonly Conversation[], zone: string): Html | Html[] {
  if (conversations.length === 0)
    return html`<tr>
      <td colspan="4" class="empty">
        No conversations yet: when a prospect answers a text, it appears here.
      </td>
    </tr>`;
  return conversations.map(
    (c) =>
      html`<tr class="${c.unread ? 'unread' : ''}">
        <td>
          <a href="/console/leads/${c.lead_id}#messages">${c.name}</a>
          ${c.unread ? html` <span class="badge" aria-label="${c.unread} unread">${c.unread}</span>` : ''}
        </td>
        <td class="phone">${phone(c.phone)}</td>
        <td>${c.last_message.direction === 'outbound' ? 'You: ' : ''}${snippet(c.last_message.body)}</td>
        <td>${when(c.last_message.at, zone)}</td>
      </tr>`,
  );
}

const snippet = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/** The Inbox: every conversation, unread first, updated live. */
export function inboxPage(d: { conversations: readonly Conversation[]; unread: number; zone: string }): Html {
  return html`<main>
    <h1>Inbox</h1>
    <p class="muted">
      Every lead whose prospect texted you: unread first, then the newest. Open one to read and answer.
    </p>
    ${dataTable(['Lead', 'Phone', 'Last message', 'When'], inboxRows(d.conversations, d.zone), {
      caption: 'Conversations, unread first, updated live',
      body: html` id="inbox-rows" hx-get="/console/inbox/rows" hx-trigger="${LIVE}" hx-swap="innerHTML"`,
    })}
  </main>`;
}
