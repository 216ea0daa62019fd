import ts from 'typescript';
import type { Tree } from '../../test/architecture';

/**
 * Which routes can move money, read from the code (money-actions.test.ts): every route of api/*.routes.ts, its
 * handler followed through every function it names (called, passed or constructed: an over-approximation, never an
 * under-one) to the declarations of the server's own files, and whether that reaches a given function, e.g. the
 * ledger's `move` (the one place balances change) or the pay check `verifyPaymentAuth`. Calls through interfaces
 * (the key verifier), the event bus (`publish` → jobs) and npm packages are not followed: none of them moves money
 * on the request's behalf.
 */
export interface RouteReach {
  /** `POST /api/order/:id/pay` */
  route: string;
  file: string;
  /** the target functions (`file#name`) its handler can reach */
  reaches: Set<string>;
}

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);

/** `file#name` of a function-like declaration: what targets are named by. */
function declarationKey(tree: Tree, node: ts.Node): string | undefined {
  const file = tree.files.find((f) => tree.sourceOf(f) === node.getSourceFile());
  if (!file) return undefined;
  const named = ts.isVariableDeclaration(node.parent) ? node.parent.name : (node as ts.FunctionDeclaration | ts.MethodDeclaration).name;
  return named && ts.isIdentifier(named) ? `${file}#${named.text}` : `${file}#<anonymous>`;
}

/** The body-bearing function of a declaration, if it is one of ours: function, method, const arrow/function, constructor. */
function functionOf(declaration: ts.Declaration): ts.FunctionLikeDeclaration | undefined {
  if ((ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isConstructorDeclaration(declaration)) && declaration.body) return declaration;
  if ((ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration)) && declaration.initializer) {
    const init = declaration.initializer;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  if (ts.isClassDeclaration(declaration)) return declaration.members.find(ts.isConstructorDeclaration);
  return undefined;
}

function resolved(checker: ts.TypeChecker, node: ts.Node): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
    try {
      return checker.getAliasedSymbol(symbol);
    } catch {
      return symbol;
    }
  }
  return symbol;
}

/** Every function of ours a piece of code names (types left out), each once. */
function namedFunctions(tree: Tree, code: ts.Node): ts.FunctionLikeDeclaration[] {
  const found = new Set<ts.FunctionLikeDeclaration>();
  const visit = (node: ts.Node) => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isIdentifier(node)) {
      for (const declaration of resolved(tree.checker, node)?.declarations ?? []) {
        if (!tree.files.some((f) => tree.sourceOf(f) === declaration.getSourceFile())) continue;
        const fn = functionOf(declaration);
        if (fn && fn !== code) found.add(fn);
      }
    }
    node.forEachChild(visit);
  };
  visit(code);
  return [...found];
}

/** Evaluates a route's path: a string, or a template of string constants (`${BASE}/:id/pay`). */
function pathText(tree: Tree, node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const declaration = resolved(tree.checker, span.expression)?.valueDeclaration;
      if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) return undefined;
      const part = pathText(tree, declaration.initializer);
      if (part === undefined) return undefined;
      text += part + span.literal.text;
    }
    return text;
  }
  return undefined;
}

/**
 * The functions that write the funds journal (`file#name`): a drizzle `.insert(fundJournal)` in their body, or a
 * statement they name whose SQL text inserts into `fund_journal` (the deposit batch's one-statement freeze).
 */
export function journalWriters(tree: Tree): string[] {
  const writers = new Set<string>();
  const insertsJournal = (text: string) => /\.insert\(\s*fundJournal\s*\)|INSERT\s+INTO\s+fund_journal\b/i.test(text);
  for (const file of tree.files) {
    const visit = (node: ts.Node) => {
      const fn = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) ? node : undefined;
      if (fn?.body) {
        let writes = insertsJournal(fn.body.getText());
        if (!writes) {
          fn.body.forEachChild(function look(child: ts.Node): void {
            if (writes) return;
            if (ts.isIdentifier(child)) {
              const declaration = resolved(tree.checker, child)?.valueDeclaration;
              if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && !functionOf(declaration) && insertsJournal(declaration.initializer.getText())) writes = true;
            }
            child.forEachChild(look);
          });
        }
        const key = writes ? declarationKey(tree, fn) : undefined;
        if (key) writers.add(key);
      }
      node.forEachChild(visit);
    };
    visit(tree.sourceOf(file));
  }
  return [...writers].sort();
}

/** Every route with the targets (`file#name`) its handler can reach. */
export function routeReach(tree: Tree, targets: readonly string[]): RouteReach[] {
  // each function's callees once; then a plain search from each handler (exact, cycles included)
  const callees = new Map<ts.FunctionLikeDeclaration, ts.FunctionLikeDeclaration[]>();
  const calleesOf = (fn: ts.FunctionLikeDeclaration) => {
    let list = callees.get(fn);
    if (!list) callees.set(fn, (list = namedFunctions(tree, fn)));
    return list;
  };
  const reachOf = (handler: ts.FunctionLikeDeclaration): Set<string> => {
    const reaches = new Set<string>();
    const seen = new Set<ts.FunctionLikeDeclaration>([handler]);
    const queue = [handler];
    while (queue.length) {
      const fn = queue.pop()!;
      const key = declarationKey(tree, fn);
      if (key && targets.includes(key)) reaches.add(key);
      for (const next of calleesOf(fn)) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return reaches;
  };

  const routes: RouteReach[] = [];
  for (const file of tree.files.filter((f) => /^api\/.*\.routes\.ts$/.test(f))) {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && METHODS.has(node.expression.name.text)) {
        const [first] = node.arguments;
        const handler = node.arguments[node.arguments.length - 1];
        const url = first && pathText(tree, first);
        if (url !== undefined && handler && (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler))) {
          routes.push({ route: `${node.expression.name.text.toUpperCase()} ${url}`, file, reaches: reachOf(handler) });
        }
      }
      node.forEachChild(visit);
    };
    visit(tree.sourceOf(file));
  }
  return routes;
}
