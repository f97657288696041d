import type { Locale } from '@parcours/domain/entities';
import { escapeHtml } from '../lib/html';
import { CATALOGUES, t } from '../lib/i18n';
import type { TextKey } from '../lib/i18n';

/**
 * The authoring page: the blocks of the content folder on the left, with the import problems;
 * choosing one opens /preview of the tenant's app in a window (the app refuses to be framed by
 * other origins) and posts the block to it once it says 'mounted'. The page polls the folder's
 * version and posts the block again when its file changes. Its words are the server's catalogues'
 * (lib/i18n.ts), in the browser's language.
 */
export function authoringPage(defaultAppUrl: string, useTenantHosts: boolean, locale: Locale = 'fr'): string {
  const h = (key: TextKey) => escapeHtml(t(locale, key));
  // The script's own texts, filled in the browser (`{{name}}` as on the server). `<` escaped so
  // no text can close the script element.
  const texts = JSON.stringify(CATALOGUES[locale].authoring).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h('authoring.title')}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1e293b; background: #f8fafc; }
  header { padding: 12px 20px; background: #1d4ed8; color: #fff; }
  header h1 { margin: 0; font-size: 1.25rem; }
  main { display: grid; grid-template-columns: minmax(280px, 420px) 1fr; gap: 20px; padding: 20px; }
  section { background: #fff; border: 1px solid #cbd5e1; border-radius: 8px; padding: 12px 16px; }
  h2 { font-size: 1.05rem; margin: 8px 0; }
  ul { list-style: none; padding: 0; margin: 0; }
  li button { width: 100%; text-align: left; padding: 6px 8px; margin: 2px 0; border: 1px solid transparent; border-radius: 6px; background: none; font: inherit; cursor: pointer; color: inherit; }
  li button:hover, li button:focus-visible { border-color: #1d4ed8; outline: none; }
  li button[aria-current="true"] { background: #dbeafe; border-color: #1d4ed8; }
  .meta { color: #475569; font-size: .85rem; }
  .issues li { color: #991b1b; font-family: ui-monospace, monospace; font-size: .85rem; margin: 4px 0; }
  .ok { color: #166534; }
  #status { min-height: 1.5em; }
</style>
</head>
<body>
<header><h1>${h('authoring.heading')}</h1></header>
<main>
  <section aria-labelledby="blocks-title">
    <h2 id="blocks-title">${h('authoring.blocks')}</h2>
    <div id="blocks"></div>
  </section>
  <section aria-labelledby="check-title">
    <h2 id="check-title">${h('authoring.check')}</h2>
    <div id="issues" aria-live="polite"></div>
    <h2>${h('authoring.preview')}</h2>
    <p id="status" role="status">${h('authoring.choose')}</p>
  </section>
</main>
<script>
const DEFAULT_APP = ${JSON.stringify(defaultAppUrl)};
const USE_TENANT_HOSTS = ${JSON.stringify(useTenantHosts)};
const T = ${texts};
const fill = (text, values) => text.replace(/\\{\\{(\\w+)\\}\\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
let catalogue = { blocks: [], issues: [], version: '' };
let selected = null;
let preview = null;
let previewOrigin = null;
let ready = false;

const statusEl = document.getElementById('status');
const say = (text) => { statusEl.textContent = text; };

function renderIssues() {
  const el = document.getElementById('issues');
  el.textContent = '';
  if (catalogue.issues.length === 0) {
    const p = document.createElement('p');
    p.className = 'ok';
    p.textContent = T.noIssues;
    el.append(p);
    return;
  }
  const p = document.createElement('p');
  p.textContent = fill(T.issues, { count: catalogue.issues.length });
  const ul = document.createElement('ul');
  ul.className = 'issues';
  for (const i of catalogue.issues) {
    const li = document.createElement('li');
    li.textContent = fill(T.issue, { file: i.file, path: i.path, message: i.message });
    ul.append(li);
  }
  el.append(p, ul);
}

function renderBlocks() {
  const el = document.getElementById('blocks');
  el.textContent = '';
  const byCourse = new Map();
  for (const b of catalogue.blocks) {
    const k = b.tenant + ' · ' + b.courseTitle;
    if (!byCourse.has(k)) byCourse.set(k, []);
    byCourse.get(k).push(b);
  }
  for (const [course, blocks] of byCourse) {
    const h = document.createElement('h2');
    h.textContent = course;
    const ul = document.createElement('ul');
    for (const b of blocks) {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.key = b.key;
      button.setAttribute('aria-current', String(b.key === selected));
      button.innerHTML = '';
      const title = document.createElement('span');
      title.textContent = b.title;
      const meta = document.createElement('span');
      meta.className = 'meta';
      meta.textContent = ' — ' + b.type + (b.rowTypes.length ? ' (' + b.rowTypes.join(', ') + ')' : '');
      button.append(title, meta);
      button.addEventListener('click', () => choose(b));
      li.append(button);
      ul.append(li);
    }
    el.append(h, ul);
  }
}

async function load() {
  const res = await fetch('/api/blocks');
  catalogue = await res.json();
  renderIssues();
  renderBlocks();
}

async function send() {
  if (!selected || !preview || preview.closed || !ready) return;
  const res = await fetch('/api/blocks/' + encodeURIComponent(selected));
  if (!res.ok) { say(T.blockGone); return; }
  const payload = await res.json();
  preview.postMessage(payload, previewOrigin);
  say(fill(T.blockSent, { title: payload.block.title }));
}

function choose(block) {
  selected = block.key;
  renderBlocks();
  const app = ((USE_TENANT_HOSTS && block.appUrl) || DEFAULT_APP).replace(/\\/$/, '');
  const origin = new URL(app).origin;
  if (!preview || preview.closed || origin !== previewOrigin) {
    previewOrigin = origin;
    ready = false;
    preview = window.open(app + '/preview', 'parcours-preview');
    say(T.opening);
    return;
  }
  send();
}

window.addEventListener('message', (event) => {
  if (event.origin !== previewOrigin || event.data !== 'mounted') return;
  ready = true;
  send();
});

setInterval(async () => {
  try {
    const res = await fetch('/api/version');
    const { version } = await res.json();
    if (version !== catalogue.version) { await load(); send(); }
  } catch { /* the tool is restarting */ }
}, 1000);

load();
</script>
</body>
</html>`;
}
