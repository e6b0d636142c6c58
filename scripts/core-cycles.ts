// `npm run checks` fails on an import cycle inside core/: a module that reaches back into one that
// reads it makes both hard to change apart (issue 35, ADR 0057). Type-only imports are left out
// (they are erased before anything runs); lazy `import()` calls count, so laziness cannot hide one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The modules a file imports at run time, as written: static, re-exported and lazy. */
export function importsOf(source: string, fileName = 'module.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!isTypeOnlyImport(node)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const onlyTypes =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((element) => element.isTypeOnly));
      if (!onlyTypes) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x'`: run for its effect
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

const isFile = (path: string) =>
  /\.tsx?$/.test(path) && existsSync(path) && statSync(path).isFile();

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The file an import names inside `root` (`#core/x` is core/x/index.ts), if it is core's. */
function resolveImport(specifier: string, from: string, root: string): string | undefined {
  let base: string;
  if (specifier.startsWith('#core/')) base = join(root, specifier.slice('#core/'.length));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return undefined;
  const candidates = [base, ...EXTENSIONS.map((extension) => base + extension)];
  return candidates.find((path) => path.startsWith(root) && isFile(path));
}

/** Every module of `root` (tests left out: they may read anything). */
function modulesOf(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
    .filter((path) => !path.split('/').includes('node_modules'))
    .map((path) => join(root, path));
}

/**
 * The import cycles among `root`'s modules, each as the files on one loop (first repeated last),
 * relative to `root`. Empty when there is none.
 */
export function cyclesIn(root: string): string[][] {
  const absoluteRoot = resolve(root);
  const graph = new Map<string, string[]>();
  for (const file of modulesOf(absoluteRoot)) {
    const targets = importsOf(readFileSync(file, 'utf8'), file)
      .map((specifier) => resolveImport(specifier, file, absoluteRoot))
      .filter((target): target is string => !!target);
    graph.set(file, [...new Set(targets)]);
  }
  return stronglyConnected(graph).map((component) =>
    loopThrough(component, graph).map((file) => relative(absoluteRoot, file)),
  );
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself). */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) components.push(component);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return components;
}

/** One loop inside a component, from its first file back to it, to name in the message. */
function loopThrough(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const loop = [file];
        while (loop[0] !== start) loop.unshift(previous.get(loop[0]!)!);
        return [...loop, start];
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return component;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cycles = cyclesIn(process.argv[2] ?? 'core');
  for (const cycle of cycles) console.error(`Import cycle in core: ${cycle.join(' -> ')}`);
  if (cycles.length > 0) process.exit(1);
  console.log('No import cycle in core.');
}
