import { html, type Html } from './html.ts';

export interface Chrome {
  agentName: string;
  agentZone: string;
  csrf: string;
  /** The nav entry of this page. */
  current: string;
  /** The agent manages an agency: the nav shows its page (nothing to manage otherwise). */
  agency: boolean;
  /** Replies the agent has not read: the Inbox's count in the nav. */
  unread: number;
}

const NAV: Array<[href: string, label: string]> = [
  ['/console/today', 'Today'],
  ['/console/inbox', 'Inbox'],
  ['/console/leads', 'Leads'],
  ['/console/agenda', 'Agenda'],
  ['/console/dial-queue', 'Dial queue'],
  ['/console/sources', 'Sources'],
  ['/console/cadences', 'Cadences'],
  ['/console/listen', 'Listen review'],
  ['/console/deliveries', 'Deliveries'],
  ['/console/report', 'Report'],
];
const AGENCY_NAV: [href: string, label: string] = ['/console/agencies', 'Agency'];

/** A whole page. Without `chrome`: the logged-out layout (login, errors before login). */
export function page(title: string, body: Html, chrome?: Chrome): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Leadgate</title>
        <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false}' />
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/htmx.min.js" defer></script>
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${
          chrome
            ? html`<header class="top">
                <nav aria-label="Console">
                  <ul>
                    ${(chrome.agency ? [...NAV, AGENCY_NAV] : NAV).map(
                      ([href, label]) =>
                        html`<li>
                          <a href="${href}" ${chrome.current === href ? html` aria-current="page"` : ''}
                            >${label}${href === '/console/inbox' ? unreadBadge(chrome.unread) : ''}</a
                          >
                        </li>`,
                    )}
                  </ul>
                </nav>
                <div class="who">
                  <span>${chrome.agentName} · times in ${chrome.agentZone}</span>
                  <form method="post" action="/console/logout">
                    <input type="hidden" name="_csrf" value="${chrome.csrf}" />
                    <button type="submit" class="link">Log out</button>
                  </form>
                </div>
              </header>`
            : ''
        }
        <div id="main" tabindex="-1">${body}</div>
      </body>
    </html>`.text;
}

/** The Inbox's unread count, for eyes and for screen readers. */
function unreadBadge(unread: number) {
  return unread > 0
    ? html` <span class="badge" id="nav-unread"
        ><span class="sr-only">, </span>${unread}<span class="sr-only"> unread</span></span
      >`
    : '';
}
