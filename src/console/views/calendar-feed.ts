import { DateTime } from 'luxon';
import { html, type Html } from '../html.ts';
import { actionButton, copyable } from './components.ts';

export interface CalendarFeedData {
  csrf: string;
  zone: string;
  /** When the agent's current feed URL was made; null when it has none. */
  madeAt: string | null;
  /** The URL just made: shown this once. */
  newUrl?: string;
}

const CONFIRM_NEW =
  'Make a new calendar URL? The current one stops at once: every calendar subscribed to it must subscribe to the new one.';

/** How to subscribe, app by app; Google's slow refresh said plainly. */
const HOW_TO = html`<details class="subscribe-help">
  <summary>How to subscribe</summary>
  <ul>
    <li>
      <strong>Google Calendar</strong> (on a computer): Other calendars → + → From URL → paste the URL → Add
      calendar. It appears on your phone too. Google reads subscribed calendars again only every few hours (up
      to a day), so a new booking can take that long to show there.
    </li>
    <li>
      <strong>Apple Calendar</strong>: on iPhone, Settings → Calendar → Accounts → Add Account → Other → Add
      Subscribed Calendar → paste the URL; on a Mac, File → New Calendar Subscription. Choose “every 15
      minutes” where it asks how often to refresh.
    </li>
    <li>
      <strong>Outlook</strong>: Add calendar → Subscribe from web → paste the URL → Import. Outlook refreshes
      it every few hours.
    </li>
  </ul>
  <p>
    Anyone who has the URL can read your appointments (names, phones, notes): keep it to yourself. If it
    leaks, make a new one; the old one stops at once.
  </p>
</details>`;

/** The agenda's calendar feed: the URL when just made, else when it was made, and a new one. */
export function calendarFeedSection(d: CalendarFeedData): Html {
  const made = d.madeAt ? DateTime.fromISO(d.madeAt, { zone: d.zone }).toFormat('LLL d, yyyy') : null;
  const body = d.newUrl
    ? html`<div class="notice" role="status">
        <p>Your calendar URL. Copy it now and subscribe: for your privacy it is not shown again.</p>
        ${copyable('calendar-feed-url', 'Calendar feed URL', d.newUrl)}
      </div>`
    : made
      ? html`<p>
          You have a calendar URL, made ${made}. It is shown only when made: if you lost it, make a new one
          (the old one stops working).
        </p>`
      : html`<p>
          Subscribe to your appointments from Google Calendar, Apple Calendar or Outlook on your phone.
        </p>`;
  const button = made || d.newUrl ? 'New calendar URL' : 'Make my calendar URL';
  return html`<section class="calendar-feed" aria-labelledby="calendar-feed-title">
    <h2 id="calendar-feed-title">Calendar feed</h2>
    ${body}
    ${actionButton(d.csrf, '/console/agenda/calendar-feed', button, made ? { confirm: CONFIRM_NEW } : {})}
    ${HOW_TO}
  </section>`;
}
