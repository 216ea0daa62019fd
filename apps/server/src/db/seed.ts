import { DICTIONARIES, PAGE_PERMISSIONS, ROLE_GRANTS, ROLES, SWITCH_CODES, WORKSPACE_MENU, flattenMenu } from '@coalx/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './client';
import { dictItems, permissions, rolePermissions, roles, switches } from './schema/index';
import { ensureDefaultTemplates } from '../modules/contract/template.service';
import { ensureDefaultHolidays } from '../modules/system/parameters.service';

/**
 * System data every installation needs: roles, menus and grants, dictionaries, switches, contract templates, the
 * PRC holidays. Inserted when missing and
 * never overwritten, so what the admin changes later stays changed; new items of a later version are added.
 */
export async function seedSystemData(db: Db): Promise<void> {
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
      .values(Object.entries(SWITCH_CODES).map(([code, remark]) => ({ code, content: '0', remark })))
      .onConflictDoNothing();
    // every installation generates contracts, so every one starts with a template per contract kind
    await ensureDefaultTemplates(tx);
    await ensureDefaultHolidays(tx);
  });
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
