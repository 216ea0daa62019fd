import fs from 'node:fs';
import path from 'node:path';
import { ROLES } from '@coalx/shared';
import ts from 'typescript';

/**
 * The layout's rules (STYLE.md), checked by reading the code with TypeScript's compiler: every import, re-export and
 * dynamic import() is resolved to a file, and every identifier to its declaration through the type checker, so an
 * alias, a namespace import or another quote style cannot hide a dependency. Used by architecture.test.ts on
 * apps/server/src and on the planted trees under test/architecture-fixtures/ (whose files end in `.ts.txt` so that
 * neither tsc nor vitest sees them; here they read as `.ts`).
 */

export type Rule =
  | 'foreign-table' // a module uses another module's table (any import form)
  | 'foreign-sql' // a module's SQL text reads or writes another module's table
  | 'status-write' // a status column is updated outside lib/transition.ts
  | 'upward-import' // a layer imports a layer above it (or test code)
  | 'unknown-layer' // a source file in no layer of LAYERS
  | 'forbidden-outside-policy' // a 403 made outside the policies
  | 'role-in-route' // a route file looks at roles
  | 'role-outside-policy' // a role compared outside the policies
  | 'route-without-policy'; // a route file's module has no policy

export interface Violation {
  rule: Rule;
  /** path relative to the checked root, with `/` */
  file: string;
  line: number;
  /** what was found, without the line: the KNOWN list matches on rule, file and detail (lines move under edits) */
  detail: string;
}

/** How a violation is listed: `rule file: detail`. */
export const violationKey = (v: Violation) => `${v.rule} ${v.file}: ${v.detail}`;
export const violationAt = (v: Violation) => `${v.file}:${v.line} ${v.rule}: ${v.detail}`;

/**
 * The layers, top-down: a file may import its own layer and those below it, never one above. `flows` sit above
 * `queries` (a flow may read a read model, a read model starts no write); modules import each other's services
 * sideways. test/ and *.test-helpers.ts are test code, which no source file imports.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['main.ts', 'app.ts'],
  ['api/', 'jobs/', 'demo/', 'scale/'],
  ['plugins/'],
  ['flows/'],
  ['queries/'],
  ['modules/'],
  ['lib/'],
  ['db/'],
  ['errors.ts', 'config.ts'],
];

/** Columns that only lib/transition.ts moves (the property key in drizzle, and the SQL name). */
export const STATE_COLUMNS = ['status', 'hangState', 'auditStatus', 'hang_state', 'audit_status'];

/** Files where a 403 may be made: the policies, the policy helpers, the route grants (and errors.ts defines it). */
const FORBIDDEN_ALLOWED = (file: string) =>
  file.endsWith('.policy.ts') || file === 'lib/policy.ts' || file === 'plugins/grants.ts' || file === 'errors.ts';

/** Files where roles may be compared: the policies and the helpers they use (requireRole, isPlatformStaff). */
const ROLES_ALLOWED = (file: string) => file.endsWith('.policy.ts') || file === 'lib/policy.ts';

/** Modules whose routes need no policy: every route is public (area). */
export const NO_POLICY_NEEDED = new Set(['area']);

const ROLE_CODES = new Set(Object.keys(ROLES));

export const isTestFile = (file: string) => file.startsWith('test/') || /\.test(-helpers)?\.ts$/.test(file);

export interface Table {
  /** the export's name, e.g. `orders` */
  name: string;
  /** the SQL name, pgTable's first argument, e.g. `trade_order` */
  sqlName: string;
  /** the module owning it: the schema file's name */
  owner: string;
  file: string;
}

export interface Tree {
  root: string;
  /** the checked source files (no tests), relative with `/` */
  files: string[];
  modules: Set<string>;
  tables: Table[];
  program: ts.Program;
  checker: ts.TypeChecker;
  sourceOf(file: string): ts.SourceFile;
  /** A relative specifier resolved to a file of the tree (relative path), or undefined. */
  resolve(fromFile: string, specifier: string): string | undefined;
}

function listFiles(root: string): Map<string, string> {
  const files = new Map<string, string>(); // relative `.ts` name → real path
  for (const entry of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const rel = entry.split(path.sep).join('/');
    const name = rel.endsWith('.ts.txt') ? rel.slice(0, -'.txt'.length) : rel;
    if (!name.endsWith('.ts') || name.endsWith('.d.ts') || isTestFile(name)) continue;
    files.set(name, path.join(root, entry));
  }
  return files;
}

/**
 * The few global types the checker needs instead of TypeScript's lib files (which would take longer to read than the
 * server): `Promise`, so that `(await import('…')).orders` resolves to its declaration, and the types every program has.
 */
const MINIMAL_LIB = `
interface Array<T> { length: number; [n: number]: T }
interface ReadonlyArray<T> { readonly length: number; readonly [n: number]: T }
interface TemplateStringsArray extends ReadonlyArray<string> { readonly raw: readonly string[] }
interface PromiseLike<T> { then<R = T>(onfulfilled?: ((value: T) => R | PromiseLike<R>) | null): PromiseLike<R> }
interface Promise<T> { then<R = T>(onfulfilled?: ((value: T) => R | PromiseLike<R>) | null): Promise<R> }
interface Boolean {} interface Function {} interface CallableFunction {} interface NewableFunction {} interface IArguments {}
interface Number {} interface Object {} interface RegExp {} interface String {} interface Symbol {} interface ImportMeta {}
`;

/**
 * Loads the source tree under `root` (fixture files may end in `.ts.txt`) into one ts.Program. Only relative imports
 * are resolved: the rules are about the server's own files, and leaving npm packages out keeps this fast.
 */
export function loadTree(root: string): Tree {
  const real = listFiles(root);
  const abs = (rel: string) => path.join(root, rel);
  const byAbs = new Map([...real].map(([rel, file]) => [abs(rel), file]));
  const relOf = (file: string) => path.relative(root, file).split(path.sep).join('/');

  const resolve = (fromFile: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier)).replace(/\.js$/, '');
    return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => real.has(candidate));
  };

  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noLib: true,
    types: [],
    strict: true,
    noEmit: true,
  };
  const libName = abs('__architecture-lib.d.ts');
  const host = ts.createCompilerHost(options, true);
  host.getSourceFile = (fileName, language) => {
    const file = byAbs.get(fileName);
    if (file) return ts.createSourceFile(fileName, fs.readFileSync(file, 'utf8'), language, true);
    return fileName === libName ? ts.createSourceFile(fileName, MINIMAL_LIB, language, true) : undefined;
  };
  host.fileExists = (fileName) => byAbs.has(fileName) || fileName === libName;
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => {
      const target = resolve(relOf(containingFile), literal.text);
      return { resolvedModule: target ? { resolvedFileName: abs(target), extension: ts.Extension.Ts } : undefined };
    });

  const files = [...real.keys()].sort();
  const program = ts.createProgram({ rootNames: [libName, ...files.map(abs)], options, host });
  const checker = program.getTypeChecker();
  const sourceOf = (file: string) => program.getSourceFile(abs(file))!;
  const modules = new Set(files.filter((f) => f.startsWith('modules/')).map((f) => f.split('/')[1]!));
  const tree: Tree = { root, files, modules, tables: [], program, checker, sourceOf, resolve };
  tree.tables = findTables(tree);
  return tree;
}

/** The schema file's module: `db/schema/order.ts` → `order`; the barrel and the column helpers belong to none. */
function schemaModule(file: string): string | undefined {
  const match = /^db\/schema\/([\w-]+)\.ts$/.exec(file);
  return match && match[1] !== 'index' && match[1] !== 'columns' ? match[1] : undefined;
}

const tableDeclarations = new WeakMap<ts.Node, Table>();

/** Every `export const x = pgTable('sql_name', …)` of db/schema/<module>.ts. */
function findTables(tree: Tree): Table[] {
  const tables: Table[] = [];
  for (const file of tree.files) {
    const owner = schemaModule(file);
    if (!owner) continue;
    for (const statement of tree.sourceOf(file).statements) {
      if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer;
        if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'pgTable') continue;
        const sqlName = init.arguments[0];
        if (!ts.isIdentifier(declaration.name) || !sqlName || !ts.isStringLiteralLike(sqlName)) continue;
        const table = { name: declaration.name.text, sqlName: sqlName.text, owner, file };
        tableDeclarations.set(declaration, table);
        tables.push(table);
      }
    }
  }
  return tables;
}

// ---------------------------------------------------------------------------------------------------------------
// helpers over the syntax tree

function walk(node: ts.Node, visit: (node: ts.Node) => void) {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

const lineOf = (node: ts.Node) => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;

/** A symbol through its aliases (import specifiers, re-exports, namespace members) to the declared one. */
function resolveAlias(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
    try {
      return checker.getAliasedSymbol(symbol);
    } catch {
      return symbol;
    }
  }
  return symbol;
}

/** The symbol a name stands for; for a destructured name, the property it takes from the destructured value. */
function symbolOf(checker: ts.TypeChecker, node: ts.Identifier): ts.Symbol | undefined {
  const parent = node.parent;
  if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === node) {
    const property = parent.propertyName ?? parent.name;
    if (!ts.isIdentifier(property)) return undefined;
    const type = checker.getTypeAtLocation(parent.parent);
    return resolveAlias(checker, type.getProperty(property.text));
  }
  return resolveAlias(checker, checker.getSymbolAtLocation(node));
}

interface Specifier {
  text: string;
  node: ts.Node;
  /** `export * from …` */
  exportAll: boolean;
}

/** Every module specifier of a file, type-only ones included: imports, re-exports, import(), require(), import types. */
function specifiers(source: ts.SourceFile): Specifier[] {
  const found: Specifier[] = [];
  walk(source, (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteralLike(node.moduleSpecifier)) {
      found.push({ text: node.moduleSpecifier.text, node, exportAll: ts.isExportDeclaration(node) && !node.exportClause });
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (dynamic || required) found.push({ text: (node.arguments[0] as ts.StringLiteralLike).text, node, exportAll: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ text: node.argument.literal.text, node, exportAll: false });
    }
  });
  return found;
}

/** The text of a string or template literal; a template's `${…}` parts read as their source text. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => ` ${span.expression.getText()} ${span.literal.text}`).join('');
  return undefined;
}

/**
 * Where a node is, by name rather than line (lines move under edits): the function, method or arrow-holding variable
 * around it, else the constant it is in.
 */
function enclosingName(node: ts.Node): string {
  let constant: string | undefined;
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name) return at.name.getText();
    if (ts.isVariableDeclaration(at) || ts.isPropertyAssignment(at) || ts.isPropertyDeclaration(at)) {
      if (at.initializer && (ts.isArrowFunction(at.initializer) || ts.isFunctionExpression(at.initializer))) return at.name.getText();
      if (ts.isVariableDeclaration(at)) constant = at.name.getText();
    }
  }
  return constant ?? 'top level';
}

const moduleOf = (file: string) => (file.startsWith('modules/') ? file.split('/')[1] : undefined);

// ---------------------------------------------------------------------------------------------------------------
// rule 1: a module touches only its own tables

export function foreignTables(tree: Tree): Violation[] {
  const violations: Violation[] = [];
  const { checker } = tree;
  const tableNames = new Set(tree.tables.map((t) => t.name));
  for (const file of tree.files) {
    const module = moduleOf(file);
    if (!module) continue;
    const source = tree.sourceOf(file);
    const add = (node: ts.Node, detail: string) => violations.push({ rule: 'foreign-table', file, line: lineOf(node), detail });

    for (const spec of specifiers(source)) {
      const target = tree.resolve(file, spec.text);
      if (!target) continue;
      const owner = schemaModule(target);
      if (owner && owner !== module) add(spec.node, `imports ${target} (the tables of module ${owner})`);
      if (target === 'db/schema/index.ts' && spec.exportAll) add(spec.node, 're-exports every table (export * from the schema)');
    }

    // every name that stands for a table, however it was imported (each form names the table's export somewhere: the
    // import specifier, the namespace member, the destructured property), each table reported once a file
    const seen = new Set<Table>();
    walk(source, (node) => {
      const named = ts.isIdentifier(node) || (ts.isStringLiteral(node) && ts.isElementAccessExpression(node.parent));
      if (!named || !tableNames.has(node.text)) return;
      const symbol = ts.isIdentifier(node) ? symbolOf(checker, node) : resolveAlias(checker, checker.getSymbolAtLocation(node));
      const declaration = symbol?.valueDeclaration;
      const table = declaration && tableDeclarations.get(declaration);
      if (!table || table.owner === module || seen.has(table)) return;
      seen.add(table);
      add(node, `uses ${table.name} (module ${table.owner})`);
    });
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------
// rule 2: a module's SQL text names only its own tables

const SQL_TABLE = /\b(?:update|insert\s+into|delete\s+from|from|join)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;

export function foreignSql(tree: Tree): Violation[] {
  const violations: Violation[] = [];
  const bySqlName = new Map(tree.tables.map((t) => [t.sqlName, t]));
  for (const file of tree.files) {
    const module = moduleOf(file);
    if (!module) continue;
    walk(tree.sourceOf(file), (node) => {
      const text = literalText(node);
      if (text === undefined) return;
      for (const match of text.matchAll(SQL_TABLE)) {
        const table = bySqlName.get(match[1]!.toLowerCase());
        if (table && table.owner !== module)
          violations.push({ rule: 'foreign-sql', file, line: lineOf(node), detail: `SQL "${match[0]}" (table of module ${table.owner})` });
      }
    });
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------
// rule 3: status columns move only in lib/transition.ts

/** The keys an object written to the database carries: literals, spreads, conditionals, a const's initializer. */
function writtenKeys(checker: ts.TypeChecker, node: ts.Expression, depth = 0): string[] {
  if (depth > 5) return [];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node))
    return writtenKeys(checker, node.expression, depth + 1);
  if (ts.isConditionalExpression(node)) return [...writtenKeys(checker, node.whenTrue, depth + 1), ...writtenKeys(checker, node.whenFalse, depth + 1)];
  if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || node.operatorToken.kind === ts.SyntaxKind.BarBarToken || node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken))
    return [...writtenKeys(checker, node.left, depth + 1), ...writtenKeys(checker, node.right, depth + 1)];
  if (ts.isObjectLiteralExpression(node)) {
    return node.properties.flatMap((property) => {
      if (ts.isSpreadAssignment(property)) return writtenKeys(checker, property.expression, depth + 1);
      const name = property.name;
      if (!name) return [];
      if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return [name.text];
      if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) return [name.expression.text];
      return [];
    });
  }
  if (ts.isIdentifier(node)) {
    const symbol = resolveAlias(checker, checker.getSymbolAtLocation(node));
    const declaration = symbol?.valueDeclaration;
    const keys: string[] = [];
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) keys.push(...writtenKeys(checker, declaration.initializer, depth + 1));
    // `patch.status = …` after the declaration
    if (symbol) {
      walk(node.getSourceFile(), (other) => {
        if (!ts.isBinaryExpression(other) || other.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return;
        const left = other.left;
        const target = ts.isPropertyAccessExpression(left) ? left.expression : ts.isElementAccessExpression(left) ? left.expression : undefined;
        if (!target || !ts.isIdentifier(target) || checker.getSymbolAtLocation(target) !== symbol) return;
        if (ts.isPropertyAccessExpression(left)) keys.push(left.name.text);
        else if (ts.isElementAccessExpression(left) && ts.isStringLiteralLike(left.argumentExpression)) keys.push(left.argumentExpression.text);
      });
    }
    return keys;
  }
  return [];
}

/** The table of `x.update(table)…` above a `.set()` in its chain, for the message. */
function updatedTable(call: ts.CallExpression): string {
  for (let at: ts.Expression = call.expression; ; ) {
    if (ts.isPropertyAccessExpression(at)) at = at.expression;
    else if (ts.isCallExpression(at)) {
      if (ts.isPropertyAccessExpression(at.expression) && /^(update|insert)$/.test(at.expression.name.text) && at.arguments[0])
        return `${at.expression.name.text}(${at.arguments[0].getText()})`;
      at = at.expression;
    } else return 'update(?)';
  }
}

/** A SET clause's assignments (up to WHERE / RETURNING / FROM / the end). */
const SQL_SET = /\bset\s+([\s\S]*?)(?=\bwhere\b|\breturning\b|\bfrom\b|;|$)/gi;
const SQL_STATE_ASSIGN = new RegExp(`(?:^|[\\s,."(])"?(${STATE_COLUMNS.join('|')})"?\\s*=(?!=)`, 'i');

/**
 * Status columns are moved by lib/transition.ts alone (it checks the move against the state machine and publishes
 * its event). The rule is on UPDATES: drizzle `.set({ status })` (also reached through spreads, conditionals and a
 * `const patch`), `onConflictDoUpdate({ set: { status } })`, and SQL text `SET status = …`. Inserting a new row with
 * its initial status (`.values({ status: 'pending' })`) is allowed: a row's birth is no move of the state machine.
 */
export function statusWrites(tree: Tree): Violation[] {
  const violations: Violation[] = [];
  const { checker } = tree;
  const stateKeys = new Set(STATE_COLUMNS);
  for (const file of tree.files) {
    if (file === 'lib/transition.ts') continue;
    walk(tree.sourceOf(file), (node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        let written: ts.Expression | undefined;
        let what = '';
        if (method === 'set' && node.arguments.length === 1) {
          written = node.arguments[0];
          what = `${updatedTable(node)}.set`;
        } else if (method === 'onConflictDoUpdate' && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
          const set = node.arguments[0].properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'set');
          if (set && ts.isPropertyAssignment(set)) written = set.initializer;
          what = `${updatedTable(node)}.onConflictDoUpdate`;
        }
        if (written) {
          const keys = [...new Set(writtenKeys(checker, written).filter((k) => stateKeys.has(k)))];
          if (keys.length)
            violations.push({ rule: 'status-write', file, line: lineOf(node), detail: `${what}({ ${keys.join(', ')} }) in ${enclosingName(node)}` });
        }
      }
      const text = literalText(node);
      if (text === undefined) return;
      for (const clause of text.matchAll(SQL_SET)) {
        const column = SQL_STATE_ASSIGN.exec(clause[1]!);
        if (column) violations.push({ rule: 'status-write', file, line: lineOf(node), detail: `SQL SET ${column[1]} = … in ${enclosingName(node)}` });
      }
    });
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------
// rule 4: no layer imports a layer above it

export function layerOf(file: string): number | undefined {
  const index = LAYERS.findIndex((layer) => layer.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry)));
  return index < 0 ? undefined : index;
}

export function upwardImports(tree: Tree): Violation[] {
  const violations: Violation[] = [];
  for (const file of tree.files) {
    const layer = layerOf(file);
    if (layer === undefined) {
      violations.push({ rule: 'unknown-layer', file, line: 1, detail: 'in no layer of LAYERS' });
      continue;
    }
    for (const spec of specifiers(tree.sourceOf(file))) {
      if (!spec.text.startsWith('.')) continue;
      const target = tree.resolve(file, spec.text);
      const add = (detail: string) => violations.push({ rule: 'upward-import', file, line: lineOf(spec.node), detail });
      if (!target) {
        // test code is left out of the tree: a specifier that only resolves to it is an import of test code
        const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec.text));
        if (isTestFile(base) || isTestFile(`${base}.ts`)) add(`imports test code ${base}`);
        continue;
      }
      const targetLayer = layerOf(target);
      if (targetLayer !== undefined && targetLayer < layer) add(`imports ${target} (${LAYERS[targetLayer]!.join(' ')} is above ${LAYERS[layer]!.join(' ')})`);
    }
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------
// rule 5: a 403 is made only by a policy (or the route's grant)

export function forbiddenOutsidePolicies(tree: Tree): Violation[] {
  const violations: Violation[] = [];
  const { checker } = tree;
  for (const file of tree.files) {
    if (FORBIDDEN_ALLOWED(file)) continue;
    const source = tree.sourceOf(file);
    // the names it goes by here: its own, and any `import { forbidden as … }`
    const names = new Set(['forbidden']);
    walk(source, (node) => {
      if ((ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) && node.propertyName?.getText() === 'forbidden') names.add(node.name.text);
    });
    walk(source, (node) => {
      const add = (what: string) => violations.push({ rule: 'forbidden-outside-policy', file, line: lineOf(node), detail: `${what} in ${enclosingName(node)}` });
      // any use of errors.ts's forbidden (called, passed on or renamed), except the import itself
      if (ts.isIdentifier(node) && names.has(node.text) && !ts.isImportSpecifier(node.parent) && !ts.isImportClause(node.parent) && !ts.isExportSpecifier(node.parent)) {
        const declaration = symbolOf(checker, node)?.valueDeclaration;
        if (declaration && ts.isVariableDeclaration(declaration) && declaration.name.getText() === 'forbidden' && declaration.getSourceFile().fileName === path.join(tree.root, 'errors.ts'))
          add(`${node.text}()`);
      }
      // or the same error made by hand
      if (ts.isNewExpression(node) && node.expression.getText() === 'AppError' && node.arguments?.[0] && ts.isStringLiteralLike(node.arguments[0]) && node.arguments[0].text === 'forbidden')
        add("new AppError('forbidden')");
    });
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------
// rule 6: roles are compared only in policies; route files look at no role; every module with routes has a policy

const ROLE_HELPERS = new Set(['requireRole', 'isPlatformStaff']);
const isRoleCode = (node: ts.Node) => ts.isStringLiteralLike(node) && ROLE_CODES.has(node.text);
const EQUALITY = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);
const unwrap = (node: ts.Node): ts.Node => (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) ? unwrap(node.expression) : node);

/**
 * A role comparison: `… === …` or `!==` with a role on one side, `….includes(role)`, `switch (role)`, or a call of
 * requireRole() / isPlatformStaff() (the helpers a policy uses). What counts as a role is given: in a route file any
 * `.role` or role code; elsewhere the acting user's role, `Actor.role` (lib/actor.ts), so that a service may still
 * read the role of the member it manages.
 */
function roleComparison(node: ts.Node, isRole: (node: ts.Node) => boolean): string | undefined {
  if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind) && (isRole(unwrap(node.left)) || isRole(unwrap(node.right)))) return node.getText();
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'includes' && node.arguments.some((a) => isRole(unwrap(a))))
    return node.getText();
  if (ts.isSwitchStatement(node) && isRole(unwrap(node.expression))) return `switch (${node.expression.getText()})`;
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ROLE_HELPERS.has(node.expression.text)) return `${node.expression.text}()`;
  return undefined;
}

export function roleChecks(tree: Tree): Violation[] {
  const violations: Violation[] = [];
  const actorFile = path.join(tree.root, 'lib/actor.ts');
  const anyRole = (node: ts.Node) => (ts.isPropertyAccessExpression(node) && node.name.text === 'role') || isRoleCode(node);
  const actorRole = (node: ts.Node) => {
    if (!ts.isPropertyAccessExpression(node) || node.name.text !== 'role') return false;
    const symbol = tree.checker.getSymbolAtLocation(node.name);
    // typed: the property declared by Actor; untyped (e.g. through an npm type left out of the program): named actor
    return symbol ? !!symbol.declarations?.some((d) => d.getSourceFile().fileName === actorFile) : /\bactor$/i.test(node.expression.getText());
  };
  for (const file of tree.files) {
    if (ROLES_ALLOWED(file)) continue;
    const route = file.startsWith('api/');
    walk(tree.sourceOf(file), (node) => {
      const compared = roleComparison(node, route ? anyRole : actorRole);
      if (compared) violations.push({ rule: route ? 'role-in-route' : 'role-outside-policy', file, line: lineOf(node), detail: compared.replace(/\s+/g, ' ') });
      // a route file reads no role at all (not even to pass it on): the policy does
      else if (route && anyRole(node) && !roleComparison(node.parent, anyRole)) violations.push({ rule: 'role-in-route', file, line: lineOf(node), detail: node.getText() });
    });
  }
  return violations;
}

/**
 * The module a route file serves: the module of its name (`api/order.routes.ts` → modules/order) if it imports it,
 * else the module holding an imported file of its name (`dict-admin.routes.ts` → modules/system/dict-admin.service.ts),
 * else the one module it imports.
 */
export function routeModule(tree: Tree, file: string): string | undefined {
  const name = path.posix.basename(file, '.routes.ts');
  const imported = specifiers(tree.sourceOf(file))
    .map((spec) => tree.resolve(file, spec.text))
    .filter((target): target is string => !!target && target.startsWith('modules/'));
  const modules = [...new Set(imported.map((target) => target.split('/')[1]!))];
  if (modules.includes(name)) return name;
  const named = imported.find((target) => path.posix.basename(target).startsWith(`${name}.`));
  if (named) return named.split('/')[1];
  return modules.length === 1 ? modules[0] : undefined;
}

export function routesWithoutPolicy(tree: Tree): Violation[] {
  const violations: Violation[] = [];
  for (const file of tree.files.filter((f) => /^api\/[\w-]+\.routes\.ts$/.test(f))) {
    const module = routeModule(tree, file);
    const add = (detail: string) => violations.push({ rule: 'route-without-policy', file, line: 1, detail });
    if (!module) add('serves no single module (it imports none, or several and none by its name)');
    else if (!NO_POLICY_NEEDED.has(module) && !tree.files.some((f) => f.startsWith(`modules/${module}/`) && f.endsWith('.policy.ts')))
      add(`module ${module} has no policy`);
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------

/** Every rule over the tree, in file and line order. */
export function checkArchitecture(tree: Tree): Violation[] {
  return [
    ...foreignTables(tree),
    ...foreignSql(tree),
    ...statusWrites(tree),
    ...upwardImports(tree),
    ...forbiddenOutsidePolicies(tree),
    ...roleChecks(tree),
    ...routesWithoutPolicy(tree),
  ].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule));
}
