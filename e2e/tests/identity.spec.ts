import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';

/**
 * Identity and account journeys (issue 5) on a tenant of their own, imported by the real content
 * CLI into the server's data dir (the demo content has no invitation code and no SSO): an OpenID
 * provider (oidc-provider) runs on 127.0.0.1 for the SSO journey, and mails are read from the
 * outbox folder the server writes.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100);
const HOST = 'identity.localhost';
// Chromium resolves *.localhost to the loopback itself; the server picks the tenant by host name.
const BASE = `http://${HOST}:${PORT}`;
const DATA_DIR = process.env.E2E_DATA_DIR ?? '';
const OUTBOX = path.join(DATA_DIR, 'outbox');
const CLIENT = { id: 'parcours-e2e', secret: 'e2e-client-secret-0123456789' };
const CODE = 'IDENTITE-2026';

const ANA = { email: 'ana@identity.test', password: 'Ana#2026x' };
const GUS = { email: 'gus@identity.test', password: 'Gus#2026x' };
const RITA = { email: 'rita@identity.test', password: 'Rita#2026x' };

function tenantFolder(issuer: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'parcours-identity-'));
  const dir = path.join(root, 'tenants', 'identity');
  mkdirSync(path.join(dir, 'courses'), { recursive: true });
  writeFileSync(
    path.join(dir, 'tenant.yaml'),
    `alias: identity
name: Identité Test
hostnames: [${HOST}]
categories: [{ id: maths, title: Maths }]
settings:
  defaultLocale: fr
  login:
    internal: true
    oidc: { label: 'Compte Test', issuer: '${issuer}', clientId: ${CLIENT.id}, clientSecret: ${CLIENT.secret} }
  invitationCodes: { enabled: true, simplePassword: false }
  certification: { allowed: false, type: attestation }
  allowContactTeacher: true
  profile: { fields: { firstname: true, lastname: true, email: true, username: true, birthday: true } }
  requiredDatas: true
  emailNotifications: false
  demoVideoUrl: null
  legal:
    cgu: { version: '2026-03', date: '2026-03-01', content: '<p>Conditions de test.</p>' }
    rgpd: { version: '2026-03', date: '2026-03-01', content: '<p>Protection des données de test.</p>' }
`,
  );
  writeFileSync(
    path.join(dir, 'courses', 'halves.yaml'),
    `id: halves
title: Moitiés
category: maths
blocks:
  - id: half-of-ten
    title: La moitié de dix
    type: exercice
    statement: { html: '<p>Combien fait la moitié de 10 ?</p>' }
    sections:
      - rows:
          - type: combined-choice
            choices: [{ value: '2' }, { value: '5' }, { value: '20' }]
            expected: 1
tree:
  children:
    - { id: s1, title: Moitiés, children: [{ id: p1, block: half-of-ten }] }
`,
  );
  const person = (
    id: string,
    email: string,
    password: string,
    first: string,
    last: string,
    birthday: string | null,
  ) =>
    `  - { id: ${id}, email: ${email}, password: '${password}', firstname: ${first}, lastname: ${last}, birthday: ${
      birthday ? `'${birthday}'` : 'null'
    }, preferredLocale: fr, cguAcceptedVersion: ${birthday ? "'2026-03'" : 'null'} }`;
  writeFileSync(
    path.join(dir, 'users.yaml'),
    [
      'users:',
      person('prof', 'prof@identity.test', 'Prof#2026x', 'Paul', 'Leprof', '1980-01-01'),
      person('ana', ANA.email, ANA.password, 'Ana', 'Lopez', '1995-06-15'),
      person('gus', GUS.email, GUS.password, 'Gus', 'Martin', null),
      person('rita', RITA.email, RITA.password, 'Rita', 'Moreau', '1990-02-02'),
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'programs.yaml'),
    'programs: [{ id: basics, name: Bases, courses: [halves] }]\n',
  );
  writeFileSync(
    path.join(dir, 'classes.yaml'),
    `classes:
  - id: c1
    name: Classe Identité
    startAt: -1d
    expireAt: +30d
    programs: [{ program: basics }]
    users:
      - { user: prof, role: TEACHER }
      - { user: ana, role: STUDENT }
      - { user: gus, role: STUDENT }
      - { user: rita, role: STUDENT }
invitations:
  - { code: ${CODE}, classes: [c1] }
`,
  );
  return root;
}

/** GET on the API as the identity tenant (Node does not resolve *.localhost: the Host header names it). */
function getJson<T>(apiPath: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: PORT,
        path: apiPath,
        headers: { Host: `${HOST}:${PORT}`, Accept: 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(text) as T) : reject(new Error(text)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Mails written by the server since `since`, decoded from quoted-printable, newest first. */
function mailsSince(since: number): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(OUTBOX).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  return names
    .map((name) => path.join(OUTBOX, name))
    .filter((file) => statSync(file).mtimeMs >= since)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((file) =>
      readFileSync(file, 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    );
}

async function waitForMail(since: number, to: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => (found = mailsSince(since).find((mail) => mail.includes(to))), { timeout: 10_000 })
    .toBeTruthy();
  return found!;
}

async function signInAt(page: Page, who: { email: string; password: string }) {
  await page.goto(`${BASE}/login`);
  await signIn(page, who);
}

let provider: Server;
let issuer = '';
let contextId = '';

test.beforeAll(async () => {
  expect(DATA_DIR, 'E2E_DATA_DIR is set by playwright.config.ts').not.toBe('');
  // The provider's address goes into the tenant before the provider itself can be configured
  // (its redirect URI names the tenant's id, known after the import).
  provider = createServer();
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;

  const folder = tenantFolder(issuer);
  execFileSync('npm', ['run', 'import', '--', folder], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, DATA_DIR, JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e', LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
  const context = await getJson<{ data: { id: string } }>('/api/contexts/current');
  contextId = context.data.id;

  // A real OpenID provider with automatic consent (as apps/api/test/helpers/oidc.ts). Imported by
  // a computed name: the package has no type declarations and is used only here.
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as { default: OidcProviderClass };
  const instance = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [`${BASE}/api/auth/oidc/${contextId}/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    cookies: { keys: ['e2e-cookie-key-0123456789'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'locale'],
    },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({
        sub,
        email: `${sub}@sso.identity.test`,
        email_verified: true,
        given_name: 'Sacha',
        family_name: 'Dupont',
        locale: 'fr',
      }),
    }),
    loadExistingGrant: async (ctx: OidcContext) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  provider.on('request', instance.callback());
});

test.afterAll(async () => {
  provider?.closeAllConnections();
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
});

test.describe('identity and account', () => {
  test('recover → read the mail → reset → sign in with the new password', async ({ page }) => {
    await page.goto(`${BASE}/login`);
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Mot de passe oublié' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const since = Date.now() - 1_000;
    await page.getByLabel('E-mail').fill(RITA.email);
    await page.getByRole('button', { name: 'Envoyer le lien' }).click();
    await expect(page.getByRole('status')).toContainText('Vérifiez votre messagerie');

    const mail = await waitForMail(since, RITA.email);
    const token = /\/reset\/([A-Za-z0-9_-]+)/.exec(mail)?.[1];
    expect(token, 'a reset link in the mail').toBeTruthy();

    await page.goto(`${BASE}/reset/${token}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Nouveau mot de passe' })).toBeVisible();
    await expect(page.getByText(`pour le compte ${RITA.email}`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const field = page.getByLabel('Nouveau mot de passe', { exact: true });
    await field.fill('simple');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await expect(
      page.getByText(
        'Doit contenir au moins : une majuscule, une minuscule, un chiffre et un caractère spécial',
      ),
    ).toBeVisible();
    // The reset field is trimmed (docs/product.md §5).
    await field.fill('  Nouveau#2026  ');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByText('Votre mot de passe a bien été mis à jour ! Vous pouvez désormais vous connecter'),
    ).toBeVisible();

    // The link is single use.
    await page.goto(`${BASE}/reset/${token}`);
    await expect(page.getByRole('alert')).toContainText('Lien invalide ou expiré');

    await signInAt(page, { ...RITA, password: RITA.password });
    await expect(page.getByRole('alert')).toContainText('Erreur de connexion');
    await signInAt(page, { ...RITA, password: 'Nouveau#2026' });
    await expect(page.getByRole('heading', { level: 1, name: 'Mes formations' })).toBeVisible();
  });

  test('register with an invitation code', async ({ page }) => {
    await page.goto(`${BASE}/login`);
    await page.getByRole('link', { name: "Créer un compte avec un code d'invitation" }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Créer un compte' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel("Code d'invitation").fill('CODE-INCONNU');
    await page.getByLabel('Pseudonyme').fill('nouvelle-recrue');
    await page.getByLabel('Mot de passe', { exact: true }).fill('Recrue#2026');
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await expect(page.getByRole('alert')).toContainText("Code d'invitation invalide");
    await expect(page.getByText("Ce code n'est pas disponible, vérifiez-le.")).toBeVisible();

    await page.getByLabel("Code d'invitation").fill(CODE);
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    // Signed in at once; the tenant asks for the required data first (no names, no birthday yet).
    await expect(page.getByRole('heading', { level: 1, name: 'Avant de continuer' })).toBeVisible();
    await page.getByLabel('Nom', { exact: true }).fill('Recrue');
    await page.getByLabel('Prénom').fill('Nouvelle');
    await page.getByLabel('Date de naissance').fill('2000-01-01');
    await page.getByLabel("J'ai lu et j'accepte les conditions générales d'utilisation").check();
    await page.getByRole('button', { name: 'Valider et continuer' }).click();
    // Enrolled in the code's class.
    await expect(page.getByRole('article', { name: 'Classe Identité' })).toBeVisible();
  });

  test('SSO sign-in through the tenant’s OpenID provider', async ({ page }) => {
    await page.goto(`${BASE}/login`);
    const sso = page.getByRole('link', { name: 'Se connecter avec Compte Test' });
    await expect(sso).toHaveAttribute('href', `/api/auth/oidc/${contextId}/login`);
    await expectNoSeriousA11yViolations(page);
    await sso.click();

    // The provider's development sign-in form.
    await page.locator('input[name="login"]').fill('sacha');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();

    // Back with ?idT=…&idU=…: signed in, the token gone from the address bar.
    await expect(page.getByRole('button', { name: /Menu utilisateur/ })).toContainText('Sacha Dupont');
    expect(page.url()).not.toContain('idT=');
    // A new SSO learner has no birthday yet: the required-data gate comes first.
    await expect(page.getByRole('heading', { level: 1, name: 'Avant de continuer' })).toBeVisible();
  });

  test('a failed SSO return says so on the sign-in screen', async ({ page }) => {
    await page.goto(`${BASE}/api/auth/oidc/${contextId}/callback?code=forged&state=forged`);
    await expect(page).toHaveURL(/\/login\?sso=failed$/);
    await expect(page.getByRole('alert')).toContainText('La connexion par authentification unique a échoué');
  });

  test('the required-data gate comes before anything else, with the legal texts at hand', async ({
    page,
  }) => {
    await signInAt(page, GUS);
    await expect(page.getByRole('heading', { level: 1, name: 'Avant de continuer' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Lire les mentions légales/ })).toHaveAttribute(
      'href',
      '/legal/mentions',
    );
    await expect(page.getByRole('link', { name: /protection des données/ })).toHaveAttribute(
      'href',
      '/legal/protection-des-donnees',
    );
    await expectNoSeriousA11yViolations(page);

    // Any signed-in route shows the gate; the legal texts stay readable.
    await page.goto(`${BASE}/me`);
    await expect(page.getByRole('heading', { level: 1, name: 'Avant de continuer' })).toBeVisible();
    await page.goto(`${BASE}/legal/mentions`);
    await expect(page.getByText('Conditions de test.')).toBeVisible();
    await page.goto(`${BASE}/`);

    await page.getByRole('button', { name: 'Valider et continuer' }).click();
    await expect(page.getByText("Choisissez votre date d'anniversaire")).toBeVisible();
    await expect(
      page.getByText("Acceptez les conditions générales d'utilisation pour continuer"),
    ).toBeVisible();
    await page.getByLabel('Date de naissance').fill('1992-03-04');
    await page.getByLabel("J'ai lu et j'accepte les conditions générales d'utilisation").check();
    await page.getByRole('button', { name: 'Valider et continuer' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Mes formations' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Mes formations' })).toBeVisible();
  });

  test('edit the profile, with each validation message shown', async ({ page }) => {
    await signInAt(page, ANA);
    await expect(page.getByRole('heading', { level: 1, name: 'Mes formations' })).toBeVisible();
    await page.goto(`${BASE}/me`);
    await expect(page.getByRole('heading', { level: 1, name: 'Mon profil' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const save = page.getByRole('button', { name: 'Enregistrer', exact: true });
    await page.getByLabel('Nom', { exact: true }).fill('');
    await page.getByLabel('Prénom').fill('');
    await page.getByLabel('E-mail').fill('pas-un-email');
    await page.getByLabel('Date de naissance').fill('');
    await page.getByRole('button', { name: 'Changer mon mot de passe' }).click();
    await save.click();
    for (const text of [
      'Entrez un nom',
      'Entrez un prénom',
      'Saisissez un e-mail valide',
      'Entrez un pseudonyme',
      "Choisissez votre date d'anniversaire",
      'Entrez votre nouveau mot de passe pour le changer',
    ]) {
      await expect(page.getByText(text, { exact: true })).toBeVisible();
    }
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Nom', { exact: true }).fill('Lo');
    await page.getByLabel('Nouveau mot de passe').fill('abc');
    await save.click();
    await expect(page.getByText('Taille requise entre 3 et 60 caractères')).toBeVisible();
    await expect(page.getByText('Taille requise entre 6 et 254 caractères')).toBeVisible();
    await page.getByLabel('Nouveau mot de passe').fill('abcdefgh');
    await save.click();
    await expect(
      page.getByText(
        'Doit contenir au moins : une majuscule, une minuscule, un chiffre et un caractère spécial',
      ),
    ).toBeVisible();
    await page.getByLabel('Nouveau mot de passe').fill('Ab1! xyz');
    await save.click();
    await expect(page.getByText('Les espaces ne sont pas autorisés')).toBeVisible();

    // Closing the change: no password is sent; the other fields are saved.
    await page.getByRole('button', { name: 'Ne pas changer le mot de passe' }).click();
    await page.getByLabel('Nom', { exact: true }).fill('Lopez-Garcia');
    await page.getByLabel('Prénom').fill('Ana');
    await page.getByLabel('E-mail').fill(ANA.email);
    await page.getByLabel('Pseudonyme').fill('ana-lg');
    await page.getByLabel('Date de naissance').fill('1995-06-15');
    await save.click();
    await expect(page.getByRole('status').filter({ hasText: 'Merci' })).toContainText(
      'Vos données ont été mises à jour',
    );
    await expect(page.getByRole('button', { name: /Menu utilisateur/ })).toContainText('Ana Lopez-Garcia');

    // A wrong current password is refused at its field.
    await page.getByRole('button', { name: 'Changer mon mot de passe' }).click();
    await page.getByLabel('Mot de passe actuel').fill('Faux#2026x');
    await page.getByLabel('Nouveau mot de passe').fill('Nouveau#2026');
    await save.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Erreur' })).toContainText(
      'Mot de passe invalide',
    );

    await page.reload();
    await expect(page.getByLabel('Nom', { exact: true })).toHaveValue('Lopez-Garcia');
  });

  test('contact the teachers of a class', async ({ page }) => {
    await signInAt(page, ANA);
    const card = page.getByRole('article', { name: 'Classe Identité' });
    await expect(card).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await card.getByRole('button', { name: /Contacter les formateurs/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Contacter les formateurs' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // docs/product.md §5: the message requirement shows when the field is left.
    await dialog.getByLabel('Message').focus();
    await dialog.getByLabel('Objet').focus();
    await expect(dialog.getByText('Entrez un message')).toBeVisible();

    const since = Date.now() - 1_000;
    await dialog.getByLabel('Objet').fill('Question sur les moitiés');
    await dialog.getByLabel('Message').fill('Bonjour, pouvez-vous réexpliquer la moitié de 10 ?');
    await dialog.getByRole('button', { name: 'Envoyer' }).click();
    await expect(dialog.getByText('Message envoyé')).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 4_000 });

    const mail = await waitForMail(since, 'prof@identity.test');
    expect(mail).toContain('pouvez-vous r');
  });
});

// oidc-provider ships no type declarations; these are the few shapes the test touches.
interface OidcGrant {
  addOIDCScope(scope: string): void;
  save(): Promise<unknown>;
}
interface OidcContext {
  oidc: {
    session?: { accountId?: string };
    client?: { clientId: string };
    provider: { Grant: new (init: { accountId: string; clientId: string }) => OidcGrant };
  };
}
type OidcProviderClass = new (
  issuer: string,
  config: Record<string, unknown>,
) => { callback(): (req: IncomingMessage, res: ServerResponse) => void };
