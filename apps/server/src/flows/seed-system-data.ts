import { createHash } from 'node:crypto';
import { CONTRACT_KIND_KEYS, DICTIONARIES, PAGE_PERMISSIONS, ROLE_GRANTS, ROLES, SWITCH_CODES, SWITCH_DEFAULTS, WORKSPACE_MENU, flattenMenu } from '@coalx/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dictItems, permissions, rolePermissions, roles, switches, systemMeta } from '../db/schema/index';
import { PRC_HOLIDAYS } from '../modules/system/prc-holidays';
import { ensureDefaultTemplates } from '../modules/contract/template.service';
import { ensureDefaultHolidays } from '../modules/system/parameters.service';

/**
 * System data every installation needs: roles, menus and grants, dictionaries, switches, contract templates, the
 * PRC holidays. Inserted when missing and
 * never overwritten, so what the admin changes later stays changed; new items of a later version are added.
 */
const SEED_FINGERPRINT_KEY = 'seed_fingerprint';
// bump when what the seed does changes; what it inserts is in the fingerprint already
const SEED_LOGIC_VERSION = 1;

/** Everything the seed inserts: a start-up with the same fingerprint as the last seed has nothing to add. */
export function seedFingerprint(): string {
  const inputs = [SEED_LOGIC_VERSION, ROLES, PAGE_PERMISSIONS, WORKSPACE_MENU, ROLE_GRANTS, DICTIONARIES, SWITCH_CODES, SWITCH_DEFAULTS, CONTRACT_KIND_KEYS, PRC_HOLIDAYS];
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

export async function seedSystemData(db: Db): Promise<void> {
  const fingerprint = seedFingerprint();
  // start-up time (README): an unchanged seed is one read, not a transaction of upserts
  const [seeded] = await db.select({ value: systemMeta.value }).from(systemMeta).where(eq(systemMeta.key, SEED_FINGERPRINT_KEY)).limit(1);
  if (seeded?.value === fingerprint) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(roles)
      .values(Object.entries(ROLES).map(([code, name]) => ({ code, name, baseRole: code, builtin: true })))
      .onConflictDoNothing();
    // roles made before base roles existed: the four built-in ones are their own base and cannot be deleted
    await tx
      .update(roles)
      .set({ baseRole: sql`${roles.code}`, builtin: true })
      .where(and(inArray(roles.code, Object.keys(ROLES)), eq(roles.builtin, false)));
    const menu = flattenMenu(WORKSPACE_MENU);
    await tx
      .insert(permissions)
      .values([
        ...PAGE_PERMISSIONS.map((p, i) => ({ id: p.id, title: p.title, path: '', component: '', isMenu: false, sort: -10 + i })),
        ...menu.map((m) => ({
          id: m.id,
          parentId: m.parentId,
          title: m.title,
          path: m.path,
          component: m.component,
          icon: m.icon ?? null,
          redirect: m.redirect ?? null,
          hidden: m.hidden ?? false,
          sort: m.sort,
        })),
      ])
      .onConflictDoNothing();
    // the workspace used to open on 企业信息; an installation still on that old default opens on the 工作台首页 now
    await tx
      .update(permissions)
      .set({ redirect: WORKSPACE_MENU.redirect })
      .where(and(eq(permissions.id, WORKSPACE_MENU.id), eq(permissions.redirect, '/companyInfo')));
    const roleRows = await tx.select().from(roles);
    for (const role of roleRows) {
      const grants = ROLE_GRANTS[role.code as keyof typeof ROLE_GRANTS] ?? [];
      if (grants.length === 0) continue;
      await tx
        .insert(rolePermissions)
        .values(grants.map((g) => ({ roleId: role.id, permissionId: g.permissionId, actions: g.actions })))
        .onConflictDoNothing();
    }
    await tx
      .insert(dictItems)
      .values(
        DICTIONARIES.flatMap((d) =>
          d.items.map((item, sort) => ({ dictCode: d.code, dictName: d.name, value: item.value, text: item.text, sort })),
        ),
      )
      .onConflictDoNothing();
    await tx
      .insert(switches)
      // a fresh installation asks the pay password for money (SWITCH_DEFAULTS); an existing row keeps its value
      .values(Object.entries(SWITCH_CODES).map(([code, remark]) => ({ code, content: SWITCH_DEFAULTS[code as keyof typeof SWITCH_CODES], remark })))
      .onConflictDoNothing();
    // every installation generates contracts, so every one starts with a template per contract kind
    await ensureDefaultTemplates(tx);
    await ensureDefaultHolidays(tx);
    await tx
      .insert(systemMeta)
      .values({ key: SEED_FINGERPRINT_KEY, value: fingerprint })
      .onConflictDoUpdate({ target: systemMeta.key, set: { value: fingerprint, updatedAt: new Date() } });
  });
}
