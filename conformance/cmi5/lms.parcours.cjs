/*
 * CATAPULT's LMS Test Suite adapter for Parcours (issue 39 item 1): the interface of the suite's
 * lib/lms.template.js, done the way a tenant does it. A course is a content folder's course
 * imported with `npm run import` (one block playing the package, .zip or cmi5.xml alone); a
 * launch is a learner's: sign in, the lesson's package page, POST /api/packages/launches (with
 * the AU and the launch mode), then what the player's bridge does on the packages origin (POST
 * /runtime/:key/start), whose answer is the AU's URL with the cmi5 launch parameters. Abandon
 * and waive are the tenant administrator's API calls; statements are read with an LRS client of
 * the tenant (all/read). The suite gives an actor: Parcours launches its own learner, whose
 * actor the AU receives (the suite compares with what the AU received).
 *
 * Environment (run.sh sets it): PARCOURS_URL, PARCOURS_CONTENT (the content folder),
 * PARCOURS_ROOT (the repository), PARCOURS_IMPORT_WORKER (the importer kept running, compiled by
 * build.mjs).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the suite (Jest 27) require()s this file */
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const Wreck = require('@hapi/wreck');
const { InvalidPackageError } = require('./errors');

const base = () => process.env.PARCOURS_URL;
const content = () => process.env.PARCOURS_CONTENT;
const tenantDir = () => path.join(content(), 'tenants', 'lts');
const PASSWORD = 'Lts#Learner2026';
let adminToken;
let learnerToken;
let lrsAuth;
let count = 0;
/** registration → the page that holds it, for a relaunch in the same registration. */
const pages = new Map();

async function call(method, url, { token, payload, headers = {} } = {}) {
  const res = await Wreck.request(method, `${base()}${url}`, {
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const body = await Wreck.read(res);
  const text = body.toString('utf8');
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 300)}`);
  return json;
}

async function login(email) {
  const r = await call('POST', '/api/users/login', { payload: { email, password: PASSWORD } });
  return r.access_token;
}

function writeCourse(id, file) {
  fs.writeFileSync(
    path.join(tenantDir(), 'courses', `${id}.yaml`),
    `id: ${id}
title: ${id}
type: standard
category: lts
blocks:
  - { id: ${id}-pkg, title: ${id}, type: tincan, package: packages/${file} }
tree:
  title: ${id}
  children:
    - { id: ${id}-s, title: ${id}, children: [{ id: ${id}-p, block: ${id}-pkg }] }
`,
  );
}

/**
 * One learner in one class with a program per course (a program's lessons open one after the
 * other; the suite's courses are independent): each course is its own lesson.
 */
function writeRoster(ids) {
  fs.writeFileSync(
    path.join(tenantDir(), 'users.yaml'),
    `users:
  - { id: admin, email: admin@lts.test, password: '${PASSWORD}', firstname: A, lastname: Admin, roles: [admin] }
  - { id: learner, email: learner@lts.test, password: '${PASSWORD}', firstname: L, lastname: Learner }
`,
  );
  fs.writeFileSync(
    path.join(tenantDir(), 'programs.yaml'),
    ids.length
      ? `programs:\n${ids.map((id) => `  - { id: p-${id}, name: ${id}, courses: [${id}] }`).join('\n')}\n`
      : 'programs: []\n',
  );
  fs.writeFileSync(
    path.join(tenantDir(), 'classes.yaml'),
    ids.length
      ? `classes:\n  - { id: lts, name: LTS, startAt: -1d, expireAt: +30d, programs: [${ids
          .map((id) => `{ program: p-${id} }`)
          .join(', ')}], users: [{ user: learner, role: STUDENT }] }\n`
      : 'classes: []\n',
  );
}

/** The importer, kept running (import-worker.ts): one folder a line, one JSON answer a line. */
let worker;
function importer() {
  if (worker) return worker;
  const child = spawn(process.execPath, [process.env.PARCOURS_IMPORT_WORKER], {
    cwd: process.env.PARCOURS_ROOT,
    env: process.env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = [];
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      waiting.shift()?.(JSON.parse(line));
    }
  });
  // A worker that dies answers what waits, and the next import starts another.
  child.on('exit', (code) => {
    worker = undefined;
    for (const resolve of waiting.splice(0))
      resolve({ ok: false, errors: [{ message: `the import worker exited (${code})` }] });
  });
  worker = {
    run: (folder) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${folder}\n`);
      }),
    close: () => child.stdin.end(),
  };
  return worker;
}

/** Null when imported, else what the importer said. */
async function importContent() {
  const report = await importer().run(content());
  return report.ok
    ? null
    : report.errors.map((e) => `${e.file ?? ''}: ${e.path ?? ''}: ${e.message}`).join('\n');
}

module.exports = {
  setup: async () => {
    adminToken = await login('admin@lts.test');
    const client = await call('POST', '/api/xapi/clients', {
      token: adminToken,
      payload: { name: 'CATAPULT LMS Test Suite', scopes: ['all/read'] },
    });
    lrsAuth = `Basic ${Buffer.from(`${client.key}:${client.secret}`).toString('base64')}`;
  },
  teardown: async () => {
    worker?.close();
    worker = undefined;
  },
  getLrsEndpoint: () => `${base()}/api/xapi`,
  getLrsAuthHeader: () => lrsAuth,

  importCourse: async (stream, contentType, filename) => {
    // Unique across the suite's files (Jest loads this module afresh for each).
    const id = `c${Date.now().toString(36)}-${++count}`;
    const ext = contentType === 'application/zip' ? 'zip' : contentType === 'text/xml' ? 'xml' : 'bin';
    const file = `${id}.${ext}`;
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    fs.writeFileSync(path.join(content(), 'packages', file), Buffer.concat(chunks));
    writeCourse(id, file);
    const known = () =>
      fs.readdirSync(path.join(tenantDir(), 'courses')).map((f) => f.replace(/\.yaml$/, ''));
    writeRoster(known());
    const failure = await importContent();
    if (failure) {
      fs.rmSync(path.join(tenantDir(), 'courses', `${id}.yaml`));
      fs.rmSync(path.join(content(), 'packages', file));
      writeRoster(known());
      if (/package|a package is/i.test(failure))
        throw new InvalidPackageError(
          `Invalid package ${filename}: ${failure.split('\n').find((l) => /package/i.test(l))}`,
        );
      throw new Error(`import failed: ${failure}`);
    }
    return id;
  },

  getLaunchUrl: async (courseId, auIndex, _actor, { registration, launchMode } = {}) => {
    learnerToken ??= await login('learner@lts.test');
    const token = learnerToken;
    let page = registration ? pages.get(registration) : undefined;
    if (!page) {
      const lessons = await call('GET', '/api/lessons?include=course', { token });
      const course = (lessons.included ?? []).find(
        (c) => c.type === 'courses' && c.attributes.title === courseId,
      );
      const lesson = lessons.data.find((l) => l.relationships?.course?.data?.id === course?.id);
      if (!lesson) throw new Error(`no lesson of ${courseId}`);
      const current = await call('GET', `/api/lessons/${lesson.id}/pages/current`, { token });
      page = { lessonId: lesson.id, pageId: current.data.id, launch: current.data.attributes.tincanLaunch };
    }
    // A relaunch in the registration uses the page's launch; once the course is satisfied the
    // page's launch is spent and the server takes the learner's own answered page (decision 0062).
    const launched = await call('POST', '/api/packages/launches', {
      token,
      payload: {
        lessonId: page.lessonId,
        pageId: page.pageId,
        launch: page.launch ?? 'none',
        au: auIndex,
        ...(launchMode ? { launchMode } : {}),
      },
    });
    const m = /\/launch\/([0-9a-f]{32})#(.+)$/.exec(launched.url);
    const res = await Wreck.request('POST', `${launched.origin}/runtime/${m[1]}/start`, {
      headers: { authorization: `Bearer ${m[2]}` },
    });
    const body = JSON.parse((await Wreck.read(res)).toString('utf8'));
    if (res.statusCode !== 200) throw new Error(`start: ${res.statusCode} ${JSON.stringify(body)}`);
    const url = /^https?:/.test(body.entry) ? body.entry : `${launched.origin}${body.entry}`;
    pages.set(new URL(url).searchParams.get('registration'), page);
    return url;
  },

  cleanup: async () => {},
  hasWaive: () => true,
  waiveAU: async (registration, auIndex, reason) => {
    await call('POST', `/api/packages/cmi5/registrations/${registration}/waive`, {
      token: adminToken,
      payload: { au: auIndex, reason },
    });
  },
  hasAbandon: () => true,
  abandonSession: async (sessionId) => {
    await call('POST', `/api/packages/cmi5/sessions/${sessionId}/abandon`, { token: adminToken });
  },
};
