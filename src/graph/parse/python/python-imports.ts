import type { ImportFact } from '../../../model/facts.js';
import {
  getCallParts,
  getDottedName,
  getLine,
  getParts,
  getPositional,
  getStringValue,
  getText,
  readFormatString,
  type PyFile,
  type PyNode,
} from './python-tree.js';

/** Calls that import a module named by a string at run time. */
const dynamicImporters = new Set(['importlib.import_module', 'import_module']);

/**
 * The imports of a Python file, anywhere in it: `import a.b` (a namespace bound to `a`), one fact per name of
 * `from a import b, c` (specifier `a.b`: the resolver tries module a/b.py first, then `b` of module a), relative
 * specifiers keeping their dots (`.views`, `..x`), `from m import *`, and `importlib.import_module('a.b')` with a
 * literal. Those under `if TYPE_CHECKING:` are type-only.
 */
export function collectImports(file: PyFile): ImportFact[] {
  const imports: ImportFact[] = [];
  const walk = (node: PyNode, typeOnly: boolean): void => {
    switch (node.type) {
      case 'import_statement':
      case 'import_from_statement':
        imports.push(...toImportFacts(file, node, typeOnly));
        return;
      case 'if_statement':
        if (isTypeCheckingTest(file, getParts(node)[0])) {
          for (const child of node.children) walk(child, typeOnly || child.type === 'block');
          return;
        }
        break;
      case 'call':
        addDynamicImport(file, node, imports);
        break;
    }
    for (const child of node.children) walk(child, typeOnly);
  };
  walk(file.root, false);
  return imports;
}

export function isTypeCheckingTest(file: PyFile, node: PyNode | undefined): boolean {
  const name = getDottedName(file, node);
  return name === 'TYPE_CHECKING' || name?.endsWith('.TYPE_CHECKING') === true;
}

/** The facts of one `import` or `from … import` statement. */
export function toImportFacts(file: PyFile, node: PyNode, typeOnly: boolean): ImportFact[] {
  const imports: ImportFact[] = [];
  if (node.type === 'import_statement') addImport(file, node, typeOnly, imports);
  else if (node.type === 'import_from_statement') addFromImport(file, node, typeOnly, imports);
  return imports;
}

function addImport(file: PyFile, node: PyNode, typeOnly: boolean, imports: ImportFact[]): void {
  const line = getLine(file, node);
  for (const part of getParts(node)) {
    const [target, alias] = part.type === 'aliased_import' ? getParts(part) : [part, undefined];
    if (target?.type !== 'dotted_name') continue;
    const specifier = toDottedText(file, target);
    const local = alias === undefined ? (specifier.split('.')[0] ?? specifier) : getText(file, alias);
    imports.push({ specifier, kind: 'static', typeOnly, names: [{ imported: '*', local, typeOnly }], line });
  }
}

function addFromImport(file: PyFile, node: PyNode, typeOnly: boolean, imports: ImportFact[]): void {
  const [source, ...names] = getParts(node);
  if (source === undefined) return;
  const module = source.type === 'relative_import' ? toRelativeText(file, source) : toDottedText(file, source);
  const line = getLine(file, node);
  for (const part of names) {
    if (part.type === 'wildcard_import') {
      imports.push({ specifier: module, kind: 'static', typeOnly, names: [{ imported: '*', local: '*', typeOnly }], line });
      continue;
    }
    const [target, alias] = part.type === 'aliased_import' ? getParts(part) : [part, undefined];
    if (target === undefined) continue;
    const imported = toDottedText(file, target);
    const local = alias === undefined ? imported : getText(file, alias);
    const specifier = module.endsWith('.') ? `${module}${imported}` : `${module}.${imported}`;
    imports.push({ specifier, kind: 'static', typeOnly, names: [{ imported, local, typeOnly }], line });
  }
}

/** `a . b` as written across lines or blanks → `a.b`. */
function toDottedText(file: PyFile, node: PyNode): string {
  return node.type === 'dotted_name'
    ? getParts(node)
        .map((part) => getText(file, part))
        .join('.')
    : getText(file, node);
}

/** `..pkg.mod` from a relative_import: its dots, then its dotted module when there is one. */
function toRelativeText(file: PyFile, node: PyNode): string {
  let text = '';
  for (const part of getParts(node))
    text += part.type === 'import_prefix' ? getText(file, part).replace(/\s/g, '') : toDottedText(file, part);
  return text;
}

function addDynamicImport(file: PyFile, node: PyNode, imports: ImportFact[]): void {
  const { callee, args } = getCallParts(node);
  const name = getDottedName(file, callee);
  if (name === undefined || !dynamicImporters.has(name)) return;
  const argument = getPositional(args)[0];
  const specifier = getStringValue(file, argument) ?? getModulePattern(file, argument);
  if (specifier === undefined || specifier === '') return;
  imports.push({
    specifier,
    kind: 'dynamic',
    typeOnly: false,
    names: [{ imported: '*', local: '*', typeOnly: false }],
    line: getLine(file, node),
  });
}

/**
 * A module name built at run time as a pattern, each part not known here read as `*`: `f"anyio._backends._{name}"`
 * and `"anyio._backends._" + name` give `anyio._backends._*` (anyio loads its event-loop backend so). Only a name whose
 * known text names a package (a dotted prefix, not relative) before the first unknown part: the resolver lists that
 * package's modules that match.
 */
function getModulePattern(file: PyFile, node: PyNode | undefined): string | undefined {
  let pattern = readFormatString(file, node, () => '*');
  if (pattern === undefined && node?.type === 'binary_operator') {
    const [left, right] = getParts(node);
    const prefix = getStringValue(file, left);
    const isPlus = left !== undefined && right !== undefined && file.source.slice(left.end, right.start).trim() === '+';
    if (prefix !== undefined && isPlus && getStringValue(file, right) === undefined) pattern = `${prefix}*`;
  }
  if (pattern === undefined || !/^[A-Za-z_][\w]*(?:\.[\w]+)*\.[\w]*\*[\w*]*$/.test(pattern)) return undefined;
  return pattern;
}
