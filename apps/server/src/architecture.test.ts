import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The rules of the layout (STYLE.md), checked on the source text so a change that breaks one fails the build:
 * a module touches only its own tables (the schema file named like it), route files check no role themselves (a
 * policy does) and every module has a policy. (The web app's rule, no page importing another page, is the web's own test.)
 */
const SRC = path.dirname(new URL(import.meta.url).pathname);
const MODULES = path.join(SRC, 'modules');
const SCHEMA = path.join(SRC, 'db', 'schema');

function filesUnder(dir: string, pattern: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => pattern.test(f)).map((f) => path.join(dir, f));
}

/** Table (export) name → the module that owns it: the schema file's name is the module's name. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of filesUnder(SCHEMA, /^[a-z-]+\.ts$/)) {
    const module = path.basename(file, '.ts');
    if (module === 'index' || module === 'columns') continue;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/^export const (\w+) = pgTable\(/gm)) owners.set(match[1]!, module);
  }
  return owners;
}

/** Names a file imports from the schema (the barrel or one schema file). */
function importedSchemaNames(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[./]*db\/schema(?:\/[\w-]+)?'/g)) {
    for (const part of match[1]!.split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
      if (name) names.push(name);
    }
  }
  return names;
}

const relative = (file: string) => path.relative(SRC, file);

/** Modules with no policy: every route is public (area) or acts only on the caller's own session (auth). */
const NO_POLICY_NEEDED = new Set(['area', 'auth']);

describe('architecture', () => {
  it('every table belongs to a module with a schema file of its name', () => {
    const owners = tableOwners();
    expect(owners.size).toBeGreaterThan(20);
    const modules = new Set(fs.readdirSync(MODULES));
    for (const [table, module] of owners) expect(modules.has(module) || module === 'system', `${table} in schema/${module}.ts`).toBe(true);
  });

  it("no module imports another module's tables (cross-domain work goes through flows/ or the other module's service)", () => {
    const owners = tableOwners();
    const violations: string[] = [];
    for (const file of filesUnder(MODULES, /\.ts$/)) {
      if (/\.test(-helpers)?\.ts$/.test(file)) continue;
      const module = relative(file).split(path.sep)[1]!;
      for (const name of importedSchemaNames(fs.readFileSync(file, 'utf8'))) {
        const owner = owners.get(name);
        if (owner && owner !== module) violations.push(`${relative(file)} imports ${name} (module ${owner})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('route files check no role: they ask the policy', () => {
    const roleCheck = /requireRole|isPlatformStaff|\.role\b|'(operator|admin|trader|enterprise_admin)'/;
    const violations = filesUnder(MODULES, /\.routes\.ts$/).filter((file) => roleCheck.test(fs.readFileSync(file, 'utf8')));
    expect(violations.map(relative)).toEqual([]);
  });

  it('roles are compared only in policies (and in lib/policy.ts itself)', () => {
    const roleCompare = /\bactor\.role\s*[!=]==|[!=]==\s*actor\.role\b|\.includes\(actor\.role\)|requireRole\(|isPlatformStaff\(/;
    const violations = [...filesUnder(MODULES, /\.ts$/), ...filesUnder(path.join(SRC, 'flows'), /\.ts$/)]
      .filter((file) => !/\.policy\.ts$|\.test(-helpers)?\.ts$/.test(file))
      .filter((file) => roleCompare.test(fs.readFileSync(file, 'utf8')));
    expect(violations.map(relative)).toEqual([]);
  });

  it('every module that serves routes has its policy', () => {
    const missing = fs
      .readdirSync(MODULES)
      .filter((module) => fs.existsSync(path.join(MODULES, module, `${module}.routes.ts`)))
      .filter((module) => !NO_POLICY_NEEDED.has(module) && !fs.existsSync(path.join(MODULES, module, `${module}.policy.ts`)));
    expect(missing).toEqual([]);
  });
});
