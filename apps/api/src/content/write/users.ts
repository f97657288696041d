/** users.yaml: companies, accounts (passwords hashed, kept when unchanged), system and company roles. */
import { hashPassword, verifyPassword } from '../../lib/password';
import { stableId } from '../../lib/ids';
import { resolveDate } from '../format';
import type { TenantWrite } from './context';
import { json } from './context';

export async function writeUsers(tw: TenantWrite): Promise<void> {
  const { db, w, b, t, ctx, contextId, id, userId } = tw;
  if (b.users) {
    const u = b.users.data;
    const cgu = t.settings.legal.cgu;
    for (const c of u.companies)
      await w.upsert('companies', { id: id('company', c.id) }, { contextId, name: c.name, avatarId: null });
    for (const usr of u.users) {
      const uid = userId(usr.id);
      const existing = await db
        .selectFrom('users')
        .select('passwordHash')
        .where('id', '=', uid)
        .executeTakeFirst();
      // Keep the stored hash when it still matches: a fresh salt would rewrite the row each time.
      let passwordHash: string | null = existing?.passwordHash ?? null;
      if (usr.password === undefined) passwordHash = null;
      else if (!(await verifyPassword(usr.password, passwordHash)))
        passwordHash = await hashPassword(usr.password);
      const accepted = usr.cguAcceptedVersion;
      await w.upsert(
        'users',
        { id: uid },
        {
          contextId,
          email: usr.email.toLowerCase(),
          username: usr.username,
          firstname: usr.firstname,
          lastname: usr.lastname,
          birthday: usr.birthday,
          preferredLocale: usr.preferredLocale,
          passwordHash,
          legal: json({
            cguAcceptedVersion: accepted,
            // The acceptance instant is the terms' publication day: stable across imports.
            cguAcceptedAt: accepted
              ? cgu?.version === accepted
                ? `${cgu.date}T00:00:00.000Z`
                : resolveDate('now', ctx.now)
              : null,
          }),
        },
      );
      for (const r of usr.roles) {
        // Roles are platform-wide: reuse one the API may already have created under another id.
        const found = await db.selectFrom('roles').select('id').where('name', '=', r).executeTakeFirst();
        const role = { id: found?.id ?? stableId('role', r) };
        await w.upsert('roles', role, { name: r });
        await w.upsert(
          'roleUsers',
          { id: id('role-user', usr.id, r) },
          { roleId: role.id, principalType: 'USER', principalId: uid, scopeId: contextId },
        );
      }
      for (const c of usr.companies)
        await w.upsert(
          'companyUsers',
          { id: id('company-user', c.company, usr.id, c.role) },
          { companyId: id('company', c.company), userId: uid, role: c.role },
        );
    }
  }
}
