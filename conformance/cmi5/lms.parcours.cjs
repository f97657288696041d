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
 * PARCOURS_ROOT (the repository).
 */
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const Wreck = require('@hapi/wreck');
const { InvalidPackageError } = require('./errors');

const base = () => process.env.PARCOURS_URL;
const content = () => process.env.PARCOURS_CONTENT;
const tenantDir = () => path.join(content(), 'tenants', 'lts');
const PASSWORD = 'Lts#Learner2026';
let adminToken;
let lrsAuth;
let count = 0;
/** registration → the page that holds it, for a relaunch in the same registration. */
const pages = new Map();
/** course id → its package file name. */
const courses = new Map();

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

/** Each course gets its own learner, so that a new course is a new registration. */
function writeRoster(ids) {
  const users = ids.map(
    (id) => `  - { id: u-${id}, email: ${id}@lts.test, password: '${PASSWORD}', firstname: L, lastname: ${id} }`,
  );
  fs.writeFileSync(
    path.join(tenantDir(), 'users.yaml'),
    `users:
  - { id: admin, email: admin@lts.test, password: '${PASSWORD}', firstname: A, lastname: Admin, roles: [admin] }
${users.join('\n')}
`,
  );
  fs.writeFileSync(
    path.join(tenantDir(), 'programs.yaml'),
    `programs:\n${ids.map((id) => `  - { id: p-${id}, name: ${id}, courses: [${id}] }`).join('\n')}\n`,
  );
  fs.writeFileSync(
    path.join(tenantDir(), 'classes.yaml'),
    `classes:\n${ids
      .map(
        (id) =>
          `  - { id: k-${id}, name: ${id}, startAt: -1d, expireAt: +30d, programs: [{ program: p-${id} }], users: [{ user: u-${id}, role: STUDENT }] }`,
      )
      .join('\n')}\n`,
  );
}

function importContent() {
  try {
    execFileSync('npx', ['tsx', 'apps/api/src/cli/import.ts', content()], {
      cwd: process.env.PARCOURS_ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return null;
  } catch (err) {
    return String(err.stderr ?? err.message);
  }
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
  teardown: async () => {},
  getLrsEndpoint: () => `${base()}/api/xapi`,
  getLrsAuthHeader: () => lrsAuth,

  importCourse: async (stream, contentType, filename) => {
    const id = `c${process.pid}-${++count}`;
    const ext = contentType === 'application/zip' ? 'zip' : contentType === 'text/xml' ? 'xml' : 'bin';
    const file = `${id}.${ext}`;
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    fs.writeFileSync(path.join(content(), 'packages', file), Buffer.concat(chunks));
    writeCourse(id, file);
    const ids = [...courses.keys(), id];
    writeRoster(ids);
    const failure = importContent();
    if (failure) {
      fs.rmSync(path.join(tenantDir(), 'courses', `${id}.yaml`));
      fs.rmSync(path.join(content(), 'packages', file));
      writeRoster([...courses.keys()]);
      if (/package|a package is/i.test(failure))
        throw new InvalidPackageError(`Invalid package ${filename}: ${failure.split('\n').find((l) => /package/i.test(l))}`);
      throw new Error(`import failed: ${failure}`);
    }
    courses.set(id, file);
    return id;
  },

  getLaunchUrl: async (courseId, auIndex, _actor, { registration, launchMode } = {}) => {
    const token = await login(`${courseId}@lts.test`);
    let page = registration ? pages.get(registration) : undefined;
    if (!page) {
      const lessons = await call('GET', '/api/lessons', { token });
      const lesson = lessons.data[0];
      const current = await call('GET', `/api/lessons/${lesson.id}/pages/current`, { token });
      page = { lessonId: lesson.id, pageId: current.data.id, launch: current.data.attributes.tincanLaunch };
    } else {
      const current = await call('GET', `/api/lessons/${page.lessonId}/pages/current?pageId=${page.pageId}`, {
        token,
      });
      page = { ...page, launch: current.data.attributes.tincanLaunch ?? page.launch };
    }
    const launched = await call('POST', '/api/packages/launches', {
      token,
      payload: {
        lessonId: page.lessonId,
        pageId: page.pageId,
        launch: page.launch ?? 'relaunch',
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
