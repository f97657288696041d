/**
 * The authoring page: the blocks of the content folder on the left, with the import problems;
 * choosing one opens /preview of the tenant's app in a window (the app refuses to be framed by
 * other origins) and posts the block to it once it says 'mounted'. The page polls the folder's
 * version and posts the block again when its file changes.
 */
export function authoringPage(defaultAppUrl: string, useTenantHosts: boolean): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parcours — aperçu des contenus</title>
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
<header><h1>Aperçu des contenus</h1></header>
<main>
  <section aria-labelledby="blocks-title">
    <h2 id="blocks-title">Blocs</h2>
    <div id="blocks"></div>
  </section>
  <section aria-labelledby="check-title">
    <h2 id="check-title">Vérification</h2>
    <div id="issues" aria-live="polite"></div>
    <h2>Aperçu</h2>
    <p id="status" role="status">Choisissez un bloc : il s'ouvre dans la fenêtre d'aperçu de l'application.</p>
  </section>
</main>
<script>
const DEFAULT_APP = ${JSON.stringify(defaultAppUrl)};
const USE_TENANT_HOSTS = ${JSON.stringify(useTenantHosts)};
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
    p.textContent = 'Aucun problème : le dossier s\\'importerait tel quel.';
    el.append(p);
    return;
  }
  const p = document.createElement('p');
  p.textContent = catalogue.issues.length + ' problème(s) :';
  const ul = document.createElement('ul');
  ul.className = 'issues';
  for (const i of catalogue.issues) {
    const li = document.createElement('li');
    li.textContent = i.file + ' — ' + i.path + ' : ' + i.message;
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
  if (!res.ok) { say('Ce bloc n\\'existe plus dans le dossier.'); return; }
  const payload = await res.json();
  preview.postMessage(payload, previewOrigin);
  say('Bloc envoyé à l\\'aperçu : ' + payload.block.title);
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
    say('Ouverture de l\\'aperçu… connectez-vous en administrateur dans cette fenêtre si elle le demande.');
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
