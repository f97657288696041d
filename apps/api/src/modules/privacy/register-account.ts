import { learnerPages } from './pages';
import type { Learner } from './learner';
import { FIGURES, deleteByUser, deleteWhere, inTenant, rowsOfUser, rowsWhere } from './register-types';
import type { RegisterEntry } from './register-types';

const quotaSubjects = (who: Learner) => who.quotaSubjects;

/**
 * The register's account and learning entries (decision 0056): the account, memberships,
 * lessons and pages, notes, uploads, certificates, reviews and score records — then the traces
 * the account leaves (reset links, sign-in and quota counters, LRS clients, cache stamps).
 */
export const ACCOUNT: RegisterEntry[] = [
  {
    table: 'users',
    columns: [
      'id',
      'email',
      'username',
      'firstname',
      'lastname',
      'birthday',
      'tincan_identifier',
      'oidc_subject',
    ],
    find: 'id = her id, in the tenant',
    export: {
      section: 'profile',
      // Left out: the password hash, a secret rather than data about her.
      rows: async (x) =>
        (
          await x.db
            .selectFrom('users')
            .selectAll()
            .where('id', '=', x.who.userId)
            .where('contextId', '=', inTenant(x))
            .execute()
        ).map(({ passwordHash: _secret, ...profile }) => profile),
    },
    erase: {
      action: 'anonymise',
      run: async (trx, who, run) => {
        await trx
          .updateTable('users')
          .set({
            email: `erased-${who.userId}@invalid`,
            username: null,
            firstname: null,
            lastname: null,
            birthday: null,
            avatarId: null,
            passwordHash: null,
            tincanIdentifier: null,
            preferredLocale: null,
            oidcSubject: null,
            legal: '{}',
            supportGroups: '[]',
            // Every session and launch made before now ends.
            tokensValidAfter: run.iso,
            updatedAt: run.iso,
          })
          .where('id', '=', who.userId)
          .where('contextId', '=', who.contextId)
          .execute();
      },
    },
  },
  {
    table: 'class_users',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: {
      section: 'enrolments',
      rows: (x) =>
        x.db
          .selectFrom('classUsers as cu')
          .innerJoin('classes as k', 'k.id', 'cu.classId')
          .select(['cu.classId', 'k.name as className', 'cu.role', 'cu.createdAt'])
          .where('cu.userId', '=', x.who.userId)
          .where('k.contextId', '=', inTenant(x))
          .execute(),
    },
    erase: { action: 'keep', reason: `memberships: ${FIGURES}` },
  },
  {
    table: 'company_users',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: {
      section: 'companies',
      rows: (x) =>
        x.db
          .selectFrom('companyUsers as cu')
          .innerJoin('companies as co', 'co.id', 'cu.companyId')
          .select(['cu.companyId', 'co.name as companyName', 'cu.role'])
          .where('cu.userId', '=', x.who.userId)
          .where('co.contextId', '=', inTenant(x))
          .execute(),
    },
    erase: { action: 'keep', reason: `memberships: ${FIGURES}` },
  },
  {
    table: 'role_users',
    columns: ['principal_id'],
    find: 'principal_id = her id',
    export: {
      section: 'roles',
      rows: (x) =>
        x.db
          .selectFrom('roleUsers as ru')
          .innerJoin('roles as r', 'r.id', 'ru.roleId')
          .select(['r.name as role', 'ru.scopeId'])
          .where('ru.principalId', '=', x.who.userId)
          .execute(),
    },
    erase: {
      action: 'keep',
      reason: 'only administrators hold a role, and an administrator is never erased this way',
    },
  },
  {
    table: 'lessons',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: {
      section: 'lessons',
      rows: (x) =>
        x.db
          .selectFrom('lessons as l')
          .innerJoin('courses as c', 'c.id', 'l.courseId')
          .selectAll('l')
          .select('c.title as courseTitle')
          .where('l.userId', '=', x.who.userId)
          .where('l.contextId', '=', inTenant(x))
          .orderBy('l.createdAt')
          .execute(),
    },
    erase: { action: 'keep', reason: `lessons and their scores: ${FIGURES}` },
  },
  {
    table: 'lesson_pages',
    columns: ['lesson_id'],
    find: 'the pages of her lessons, every attempt',
    // As the player shows them now: no key of a page she can still retry, no computed value of
    // a parametrised page before the answer (lesson-pages/disclosure.ts); no launch token.
    export: { section: 'pages', rows: learnerPages },
    erase: {
      action: 'keep',
      reason: `answers and scores: ${FIGURES} (a free-text answer is not read for names, decision 0039)`,
    },
  },
  {
    table: 'log_book_records',
    columns: ['student_id', 'user_id'],
    find: 'notes she wrote (user_id) or written about her (student_id)',
    export: {
      section: 'notes',
      rows: (x) =>
        x.db
          .selectFrom('logBookRecords')
          .selectAll()
          .where('contextId', '=', inTenant(x))
          .where((eb) => eb.or([eb('studentId', '=', x.who.userId), eb('userId', '=', x.who.userId)]))
          .orderBy('createdAt')
          .execute(),
    },
    erase: {
      action: 'delete',
      run: async (trx, who) => {
        await trx
          .deleteFrom('logBookRecords')
          .where('contextId', '=', who.contextId)
          .where((eb) => eb.or([eb('studentId', '=', who.userId), eb('userId', '=', who.userId)]))
          .execute();
      },
    },
  },
  {
    table: 'files',
    columns: ['owner_id'],
    find: 'owner_id = her id, in the tenant',
    export: {
      section: 'uploads',
      rows: async (x) =>
        (
          await x.db
            .selectFrom('files')
            .select(['id', 'name', 'type', 'fileType', 'size', 'sha256', 'createdAt'])
            .where('contextId', '=', inTenant(x))
            .where('ownerId', '=', x.who.userId)
            .execute()
        ).map((f) => ({ ...f, download: `/api/files/${encodeURIComponent(f.id)}/download` })),
    },
    erase: {
      action: 'delete',
      run: async (trx, who, run) => {
        const rows = await trx
          .deleteFrom('files')
          .where('contextId', '=', who.contextId)
          .where('ownerId', '=', who.userId)
          .returning('storagePath')
          .execute();
        // The bytes go after the commit, from the store that keeps them.
        run.paths.push(...rows.map((r) => r.storagePath));
      },
    },
  },
  {
    table: 'libraries',
    columns: ['owner_id'],
    find: "owner_type 'USER' and owner_id = her id",
    export: {
      section: 'libraries',
      rows: (x) =>
        x.db
          .selectFrom('libraries')
          .selectAll()
          .where('contextId', '=', inTenant(x))
          .where('ownerType', '=', 'USER')
          .where('ownerId', '=', x.who.userId)
          .execute(),
    },
    erase: {
      action: 'delete',
      run: async (trx, who) => {
        await trx
          .deleteFrom('libraries')
          .where('contextId', '=', who.contextId)
          .where('ownerType', '=', 'USER')
          .where('ownerId', '=', who.userId)
          .execute();
      },
    },
  },
  {
    table: 'certificates',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: { section: 'certificates', rows: rowsOfUser('certificates') },
    // Its snapshot names her: a certificate of nobody is no certificate.
    erase: { action: 'delete', run: deleteByUser('certificates') },
  },
  {
    table: 'reviews',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: { section: 'reviews', rows: rowsOfUser('reviews') },
    // The ratio is a figure of the course; the comment is free text that may name her.
    erase: {
      action: 'anonymise',
      run: async (trx, who) => {
        await trx
          .updateTable('reviews')
          .set({ comment: null })
          .where('contextId', '=', who.contextId)
          .where('userId', '=', who.userId)
          .execute();
      },
    },
  },
  {
    table: 'records',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: { section: 'records', rows: rowsOfUser('records') },
    erase: { action: 'keep', reason: `daily scores: ${FIGURES}` },
  },
];

export const TRACES: RegisterEntry[] = [
  {
    table: 'password_resets',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: {
      section: 'passwordResets',
      rows: (x) =>
        x.db
          .selectFrom('passwordResets')
          .select(['expireAt', 'usedAt', 'createdAt'])
          .where('userId', '=', x.who.userId)
          .execute(),
    },
    erase: {
      action: 'delete',
      run: async (trx, who) => {
        await trx.deleteFrom('passwordResets').where('userId', '=', who.userId).execute();
      },
    },
  },
  {
    table: 'ended_sessions',
    columns: ['user_id'],
    find: 'user_id = her id',
    export: {
      section: 'endedSessions',
      // When her signed-out sessions would have ended; their ids are the tokens' secrets' kin.
      rows: (x) =>
        x.db.selectFrom('endedSessions').select(['expiresAt']).where('userId', '=', x.who.userId).execute(),
    },
    erase: {
      action: 'delete',
      run: async (trx, who) => {
        await trx.deleteFrom('endedSessions').where('userId', '=', who.userId).execute();
      },
    },
  },
  {
    table: 'login_attempts',
    columns: ['key'],
    find: 'keys {login, login-slow, recover, password}:{tenant}:{her e-mail, username or id}',
    export: {
      section: 'signInCounters',
      rows: (x) => x.db.selectFrom('loginAttempts').selectAll().where('key', 'in', x.who.loginKeys).execute(),
    },
    erase: {
      action: 'delete',
      run: async (trx, who) => {
        await trx.deleteFrom('loginAttempts').where('key', 'in', who.loginKeys).execute();
      },
    },
  },
  {
    table: 'quota_usage',
    columns: ['subject'],
    find: 'subject = her id, or launch:{key} of her launch credentials',
    export: { section: 'quotaUsage', rows: rowsWhere('quotaUsage', 'subject', quotaSubjects) },
    erase: { action: 'delete', run: deleteWhere('quotaUsage', 'subject', quotaSubjects) },
  },
  {
    table: 'xapi_clients',
    columns: ['created_by'],
    find: 'created_by = her id',
    export: {
      section: 'lrsClients',
      rows: (x) =>
        x.db
          .selectFrom('xapiClients')
          .select(['key', 'name', 'scopes', 'createdAt', 'revokedAt'])
          .where('contextId', '=', inTenant(x))
          .where('createdBy', '=', x.who.userId)
          .execute(),
    },
    erase: {
      action: 'keep',
      reason: 'only administrators create LRS clients, and an administrator is never erased this way',
    },
  },
  {
    table: 'home_versions',
    columns: ['key'],
    find: "key = 'u:' || her id",
    export: { leftOut: 'a version number the home cache compares, nothing about her' },
    erase: { action: 'keep', reason: "a counter under the anonymous account's id" },
  },
];
