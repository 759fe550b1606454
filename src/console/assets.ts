import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Everything the console's pages load, served by the app itself (no CDN: the network may be
 * closed): htmx from its npm package, and the stylesheet and the script below: copy buttons, and the
 * question a destructive button (`data-confirm`) asks before its form is sent.
 */
const require = createRequire(import.meta.url);
const htmx = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8');

const css = `
:root { --fg: #1c2430; --muted: #5b6675; --line: #d6dbe1; --bg: #f6f7f9; --card: #fff; --accent: #0b5cad; --bad: #a4262c; --ok: #1d6b36; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 8px; z-index: 2; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
header.top { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 8px; padding: 8px 16px; background: #14202e; color: #fff; }
header.top a { color: #fff; text-decoration: none; padding: 6px 8px; border-radius: 4px; display: inline-block; }
header.top a[aria-current="page"] { background: #2d4a6b; }
header.top ul { list-style: none; display: flex; flex-wrap: wrap; gap: 2px; margin: 0; padding: 0; }
header.top .who { display: flex; align-items: center; gap: 8px; font-size: 14px; }
button.link { background: none; border: 1px solid #8fa3b8; color: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 16px; }
main.narrow { max-width: 420px; margin-top: 8vh; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
h1 { font-size: 1.6rem; margin: 0.3em 0; } h2 { font-size: 1.2rem; } h3 { font-size: 1rem; margin-bottom: 4px; }
.stack { display: flex; flex-direction: column; gap: 6px; }
input, select, button { font: inherit; padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--fg); max-width: 100%; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
.phone { white-space: nowrap; } .url { word-break: break-all; }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
button.secondary { background: #fff; color: var(--accent); }
form.cadence td.delay { white-space: nowrap; } form.cadence textarea { min-width: 14em; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: flex-end; margin: 12px 0; }
.filters label { display: flex; flex-direction: column; font-size: 14px; color: var(--muted); }
.table-wrap { overflow-x: auto; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; min-width: 640px; }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 13px; color: var(--muted); font-weight: 600; }
.status { display: inline-block; padding: 1px 8px; border-radius: 10px; background: #e6eef7; font-size: 13px; }
.status.bad { background: #fbe9ea; color: var(--bad); } .status.ok { background: #e6f4ea; color: var(--ok); }
.empty, .muted { color: var(--muted); }
.error { color: var(--bad); background: #fbe9ea; padding: 8px 12px; border-radius: 6px; }
.notice { background: #e6f4ea; border: 1px solid #b7dcc2; padding: 8px 12px; border-radius: 8px; margin: 12px 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 12px 0; }
.actions, .links { display: flex; flex-wrap: wrap; gap: 8px; }
form.inline { display: inline; }
pre { background: #eef1f4; padding: 8px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font-size: 13px; }
dl.fields { display: grid; grid-template-columns: minmax(120px, max-content) 1fr; gap: 4px 16px; margin: 0; }
dl.fields dt { color: var(--muted); } dl.fields dd { margin: 0; word-break: break-word; }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.timeline { padding-left: 20px; } .changes { font-size: 14px; }
del { color: var(--bad); } ins { color: var(--ok); text-decoration: none; }
.pager { display: flex; flex-wrap: wrap; gap: 16px; margin: 12px 0; }
.agenda { list-style: none; padding: 0; } .appt { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 6px 0; }
.appt p { margin: 2px 0; }
.act { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 12px; align-items: end; margin-bottom: 8px; }
.act label { display: flex; flex-direction: column; font-size: 14px; color: var(--muted); }
textarea { font: inherit; padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; width: 100%; }
.copy-row { display: flex; gap: 6px; }
.tiles { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 8px; }
.tiles li { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.tiles li strong { display: block; font-size: 1.6rem; } .tiles li.bad { border-color: var(--bad); }
.age { font-variant-numeric: tabular-nums; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; } .charts figure { margin: 0; } svg.chart { max-width: 100%; height: auto; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
blockquote.note { margin: 4px 0 4px 8px; padding: 4px 10px; border-left: 3px solid var(--accent); background: var(--card); white-space: pre-wrap; } .copy-row input { flex: 1; min-width: 0; font-family: ui-monospace, monospace; }
.badge { display: inline-block; min-width: 1.4em; padding: 0 6px; border-radius: 10px; background: #d13438; color: #fff; font-size: 12px; font-weight: 700; text-align: center; }
.thread { list-style: none; padding: 0; margin: 0 0 12px; display: flex; flex-direction: column; gap: 8px; }
.msg { max-width: 80%; padding: 8px 12px; border-radius: 12px; border: 1px solid var(--line); }
.msg p { margin: 0; } .msg .body { white-space: pre-wrap; word-break: break-word; } .msg .meta { font-size: 12px; color: var(--muted); margin-top: 4px; }
.msg.in { align-self: flex-start; background: #fff; } .msg.in.unread { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.msg.out { align-self: flex-end; background: #e6eef7; }
form.answer { max-width: 640px; } form.answer button { align-self: flex-start; }
tr.unread td:first-child a { font-weight: 700; }
@media (max-width: 700px) {
  .side-by-side { grid-template-columns: 1fr; }
  header.top { padding: 6px; } main { padding: 10px; }
  dl.fields { grid-template-columns: 1fr; } dl.fields dd { margin-bottom: 6px; }
}
`;

const js = `
function since(seconds) {
  if (seconds < 60) return seconds + ' s';
  if (seconds < 3600) return Math.floor(seconds / 60) + ' min ' + (seconds % 60) + ' s';
  if (seconds < 86400) return Math.floor(seconds / 3600) + ' h ' + Math.floor((seconds % 3600) / 60) + ' min';
  return Math.floor(seconds / 86400) + ' d ' + Math.floor((seconds % 86400) / 3600) + ' h';
}
setInterval(function () {
  document.querySelectorAll('[data-since]').forEach(function (el) {
    var from = Date.parse(el.getAttribute('data-since'));
    if (!isNaN(from)) el.textContent = since(Math.max(0, Math.floor((Date.now() - from) / 1000)));
  });
  document.querySelectorAll('[data-until]').forEach(function (el) {
    var until = Date.parse(el.getAttribute('data-until'));
    if (isNaN(until)) return;
    var seconds = Math.floor((until - Date.now()) / 1000);
    el.textContent = seconds > 0 ? since(seconds) : 'closed';
  });
}, 1000);
document.addEventListener('click', function (e) {
  var destructive = e.target.closest('[data-confirm]');
  if (destructive && !window.confirm(destructive.getAttribute('data-confirm'))) e.preventDefault();
});
document.addEventListener('click', function (e) {
  var button = e.target.closest('[data-copy]');
  if (!button) return;
  var field = document.getElementById(button.getAttribute('data-copy'));
  if (!field) return;
  field.select();
  var done = function () { button.textContent = 'Copied'; };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
  else { document.execCommand('copy'); done(); }
});
`;

export const ASSETS: Record<string, { type: string; body: string }> = {
  'htmx.min.js': { type: 'text/javascript; charset=utf-8', body: htmx },
  'console.css': { type: 'text/css; charset=utf-8', body: css },
  'console.js': { type: 'text/javascript; charset=utf-8', body: js },
};
