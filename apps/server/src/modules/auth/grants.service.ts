import { createHash } from 'node:crypto';
import { ACTIONS, MENU_PARENT, type ActionKey } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { permissions, rolePermissions } from '../../db/schema/index';

/**
 * The grants of every role, in memory (one small table read whole): the grants plugin enforces them per route,
 * the role admin reloads them after a change, sign-in serves them to the page. See plugins/grants.ts for when
 * they are reloaded.
 */
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
    return (await this.heldBy(roleId))(check);
  }

  /** The role's grants as a synchronous check, for the verdicts a detail answer carries (lib/policy.ts). */
  async heldBy(roleId: number | undefined): Promise<(check: string) => boolean> {
    await this.ensureLoaded();
    const grants = roleId === undefined ? undefined : this.byRole.get(roleId);
    return (check) => {
      const { permissionId, action } = splitCheck(check);
      const actions = grants?.get(permissionId);
      return actions !== undefined && (action === null || actions.has(action));
    };
  }

  /** Changes exactly when the role's grants change: the web reloads its menu when the value it holds differs. */
  async version(roleId: number | undefined): Promise<string> {
    await this.ensureLoaded();
    return roleId === undefined ? '' : (this.versions.get(roleId) ?? versionOf(roleId, new Map()));
  }

  /** Why a check the role failed is refused: names the page and the action in Chinese (the grants plugin sends the 403). */
  refusalMessage(check: string): string {
    const { permissionId, action } = splitCheck(check);
    const title = this.titles.get(permissionId) ?? this.titles.get(MENU_PARENT.get(permissionId) ?? '') ?? '该功能';
    if (action === null) return `您的角色没有「${title}」的权限，请联系系统管理员`;
    const actionName = ACTIONS[action as ActionKey] ?? action;
    return `您的角色没有「${title}」的${actionName}权限，请联系系统管理员`;
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

/**
 * The acting user's grants as a check, for the verdicts an answer carries. An actor the server makes for itself
 * (demo data, jobs) has no role row: grants are checked on requests only, so for it the policy's rule decides alone.
 */
export async function grantsHeld(db: Db, actor: { roleId?: number }): Promise<(check: string) => boolean> {
  if (actor.roleId === undefined) return () => true;
  return grantsOf(db).heldBy(actor.roleId);
}

/** The grants of one database (one per app; tests run several apps, each on its own database). */
export function grantsOf(db: Db): GrantsCache {
  let cache = cacheOfDb.get(db);
  if (!cache) cacheOfDb.set(db, (cache = new GrantsCache(db)));
  return cache;
}

