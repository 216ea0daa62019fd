import { createHash } from 'node:crypto';
import { ACTIONS, MENU_PARENT, type ActionKey } from '@coalx/shared';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { permissions, rolePermissions } from '../db/schema/index';
import { forbidden } from '../errors';
import { eventBusOf } from '../lib/events';
import { eq } from 'drizzle-orm';

/**
 * Grants the server enforces (issue 17 item 2). A route names what it needs in its config:
 * `config: { permission: 'auctionTrade' }` (the menu item) or `'financial-payRecord.export'` (item and action), or a
 * list of which any one will do. After authentication, this plugin answers 403 with a Chinese message when the
 * actor's role (actor.roleId, the real role, not the base role the policies compare) lacks it. So removing `export`
 * from a role closes its Excel export at the server, not only its button.
 *
 * Grants live in memory: one small table read whole. They are reloaded
 *  - in the process that changed a role, right after its transaction commits (roles-admin.service calls
 *    `grantsOf(db).reload()` before answering, so the admin's next request already sees the change), and
 *  - in every process on the `role.grants_changed` event, which travels through PostgreSQL NOTIFY
 *    (lib/events.ts CROSS_PROCESS_EVENTS), so the other servers of one database follow within moments.
 * No time-based expiry: nothing else writes sys_role_permission while the server runs (the seed runs before start).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Menu item (`auctionTrade`) or item and action (`listingTrade-deal.export`) the actor's role must hold; a list means any of them. */
    permission?: string | readonly string[];
  }
}

export const GRANTS_VERSION_HEADER = 'x-grants-version';

type RoleGrants = Map<string, ReadonlySet<string>>;

export class GrantsCache {
  private byRole = new Map<number, RoleGrants>();
  private versions = new Map<number, string>();
  private titles = new Map<string, string>();
  private loading: Promise<void> | null = null;
  private loaded = false;

  constructor(private readonly db: Db) {}

  /** Reads every role's grants again; concurrent callers share one read started after their call. */
  async reload(): Promise<void> {
    const rows = await this.db
      .select({ roleId: rolePermissions.roleId, permissionId: rolePermissions.permissionId, actions: rolePermissions.actions, title: permissions.title })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId));
    const byRole = new Map<number, Map<string, ReadonlySet<string>>>();
    const titles = new Map<string, string>();
    for (const row of rows) {
      let grants = byRole.get(row.roleId);
      if (!grants) byRole.set(row.roleId, (grants = new Map()));
      grants.set(row.permissionId, new Set(row.actions));
      titles.set(row.permissionId, row.title);
    }
    const versions = new Map<number, string>();
    for (const [roleId, grants] of byRole) versions.set(roleId, versionOf(roleId, grants));
    this.byRole = byRole;
    this.versions = versions;
    this.titles = titles;
    this.loaded = true;
  }

  private async ensureLoaded() {
    if (this.loaded) return;
    this.loading ??= this.reload().finally(() => (this.loading = null));
    await this.loading;
  }

  /** Whether the role holds the item (and the action, when the check names one): spec §6 `permissionId.action`. */
  async allows(roleId: number | undefined, check: string): Promise<boolean> {
    await this.ensureLoaded();
    if (roleId === undefined) return false;
    const { permissionId, action } = splitCheck(check);
    const actions = this.byRole.get(roleId)?.get(permissionId);
    if (!actions) return false;
    return action === null || actions.has(action);
  }

  /** Changes exactly when the role's grants change: the web reloads its menu when the value it holds differs. */
  async version(roleId: number | undefined): Promise<string> {
    await this.ensureLoaded();
    return roleId === undefined ? '' : (this.versions.get(roleId) ?? versionOf(roleId, new Map()));
  }

  /** The refusal for a check the role failed: names the page and the action in Chinese. */
  refusal(check: string): Error {
    const { permissionId, action } = splitCheck(check);
    const title = this.titles.get(permissionId) ?? this.titles.get(MENU_PARENT.get(permissionId) ?? '') ?? '该功能';
    if (action === null) return forbidden(`您的角色没有「${title}」的权限，请联系系统管理员`);
    const actionName = ACTIONS[action as ActionKey] ?? action;
    return forbidden(`您的角色没有「${title}」的${actionName}权限，请联系系统管理员`);
  }
}

function splitCheck(check: string): { permissionId: string; action: string | null } {
  const dot = check.lastIndexOf('.');
  return dot < 0 ? { permissionId: check, action: null } : { permissionId: check.slice(0, dot), action: check.slice(dot + 1) };
}

function versionOf(roleId: number, grants: RoleGrants): string {
  const text = [...grants.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, actions]) => `${id}:${[...actions].sort().join(',')}`)
    .join(';');
  return createHash('sha256').update(`${roleId}|${text}`).digest('hex').slice(0, 16);
}

const cacheOfDb = new WeakMap<Db, GrantsCache>();

/** The grants of one database (one per app; tests run several apps, each on its own database). */
export function grantsOf(db: Db): GrantsCache {
  let cache = cacheOfDb.get(db);
  if (!cache) cacheOfDb.set(db, (cache = new GrantsCache(db)));
  return cache;
}

export default fp(async (app) => {
  const grants = grantsOf(app.db);
  const stop = eventBusOf(app.db).on('role.grants_changed', () => grants.reload());
  app.addHook('onClose', async () => stop());

  // preHandler: after authentication (onRequest) and after the body is validated, so a malformed call is still a 400
  app.addHook('preHandler', async (request, reply) => {
    const actor = request.actor;
    if (!actor) return;
    reply.header(GRANTS_VERSION_HEADER, await grants.version(actor.roleId));
    const required = request.routeOptions.config?.permission;
    if (required === undefined) return;
    const checks = typeof required === 'string' ? [required] : required;
    for (const check of checks) if (await grants.allows(actor.roleId, check)) return;
    throw grants.refusal(checks[0]!);
  });
});
