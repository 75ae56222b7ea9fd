import type { ConstantFact, Span } from '../../model/facts.js';
import type { CallableScopes } from './callable-scopes.js';
import type { FunctionTarget, ModuleLinks } from './module-links.js';
import { collectConstantParts } from './reference-frames.js';
import type { SourcePositions } from './source-positions.js';
import { type AstNode, getIdentifierName, getNode, getNodes, getString, isFunctionNode, unwrapExpression } from './swc-node.js';
import { getBindingNames, getFirstDecorator, isTypeOnlyItem } from './walker-patterns.js';

/** What visiting a top-level statement needs from the walker. */
export interface ModuleItemHost {
  readonly positions: SourcePositions;
  readonly links: ModuleLinks;
  readonly scopes: CallableScopes;
  readonly functionTargets: Map<AstNode, FunctionTarget>;
  readonly typeSpans: Span[];
  /** Records the byte range of type syntax (a type-only item here) for the file's runtime hash. */
  recordTypeRange(value: unknown): void;
  readonly constants: ConstantFact[];
  visitNode(node: AstNode): void;
}

/** `require('x')`, `await import('x')`, `require('x').member`: a module loaded, whose bindings are imports. */
function isModuleLoad(init: AstNode | undefined): boolean {
  let value = unwrapExpression(init);
  if (value?.type === 'AwaitExpression') value = unwrapExpression(getNode(value, 'argument'));
  while (value?.type === 'MemberExpression') value = unwrapExpression(getNode(value, 'object'));
  if (value?.type !== 'CallExpression') return false;
  const callee = getNode(value, 'callee');
  return callee?.type === 'Import' || (callee?.type === 'Identifier' && getString(callee, 'value') === 'require');
}

/** Walks a top-level declaration inside the frame of the callable it declares, a variable's declarators one by one. */
function visitTopLevel(host: ModuleItemHost, declaration: AstNode, statement: AstNode, spanStart: AstNode, defaultName?: string): void {
  if (declaration.type === 'VariableDeclaration') {
    const declarators = getNodes(declaration, 'declarations');
    const isConst = getString(declaration, 'kind') === 'const';
    for (const declarator of declarators) {
      const id = getNode(declarator, 'id');
      // `const { ping, setting } = require('../util-server')` binds imports, and declares no callable named for its
      // first binding: uptime-kuma removed `setting` from such a list, and every route calling a `ping` was reached.
      const name = id?.type !== 'Identifier' && isModuleLoad(getNode(declarator, 'init')) ? undefined : getBindingNames(id)[0];
      if (isConst && id?.type === 'Identifier' && name !== undefined)
        collectConstantParts(name, getNode(declarator, 'init'), host.constants);
      const spanNode = declarators.length === 1 ? statement : declarator;
      host.scopes.visitInFrame(name, spanNode, declarators.length === 1 ? spanStart : declarator, () => host.visitNode(declarator));
    }
    return;
  }
  host.scopes.visitInFrame(getDeclarationName(declaration, defaultName), statement, spanStart, () => host.visitNode(declaration));
}

/** One top-level statement: its imports, exports and declarations are recorded, then its body is walked. */
export function visitModuleItem(host: ModuleItemHost, item: AstNode): void {
  if (isTypeOnlyItem(item)) {
    host.typeSpans.push(host.positions.spanOf(item, getFirstDecorator(item) ?? item));
    host.recordTypeRange(item);
  }
  switch (item.type) {
    case 'ImportDeclaration':
      host.links.recordImportDeclaration(item);
      return;
    case 'ExportAllDeclaration':
      host.links.recordExportAll(item);
      return;
    case 'ExportNamedDeclaration':
      host.links.recordExportNamed(item);
      return;
    case 'ExportDeclaration':
      visitExportDeclaration(host, item);
      return;
    case 'ExportDefaultDeclaration':
      visitExportDefaultDeclaration(host, item);
      return;
    case 'ExportDefaultExpression':
      visitExportDefaultExpression(host, item);
      return;
    case 'TsExportAssignment': {
      const expression = getNode(item, 'expression');
      if (expression !== undefined) {
        host.links.recordCommonJsValue(expression, item);
        host.visitNode(expression);
      }
      return;
    }
    case 'TsImportEqualsDeclaration':
      host.links.recordImportEquals(item);
      return;
    case 'TsNamespaceExportDeclaration':
      return;
    default:
      host.links.recordDeclaration(item, item, getFirstDecorator(item) ?? item);
      visitTopLevel(host, item, item, getFirstDecorator(item) ?? item);
  }
}

function visitExportDeclaration(host: ModuleItemHost, item: AstNode): void {
  const declaration = getNode(item, 'declaration');
  if (declaration === undefined) return;
  const spanStart = getFirstDecorator(declaration) ?? item;
  for (const declared of host.links.recordDeclaration(declaration, item, spanStart)) {
    host.links.addExport({ name: declared.name, kind: declared.kind, span: declared.span, typeOnly: declared.typeOnly });
  }
  visitTopLevel(host, declaration, item, spanStart);
}

function visitExportDefaultDeclaration(host: ModuleItemHost, item: AstNode): void {
  const declaration = getNode(item, 'decl');
  if (declaration === undefined) return;
  const typeOnly = declaration.type === 'TsInterfaceDeclaration';
  const local = getIdentifierName(getNode(declaration, 'identifier'));
  const span = host.positions.spanOf(item, getFirstDecorator(declaration) ?? item);
  host.links.addExport(
    local !== undefined && !typeOnly
      ? { name: 'default', kind: 'default', span, typeOnly, local }
      : { name: 'default', kind: 'default', span, typeOnly },
  );
  if (declaration.type === 'FunctionExpression') {
    host.functionTargets.set(declaration, { name: local ?? 'default', spanNode: item });
  }
  if (!typeOnly) visitTopLevel(host, declaration, item, getFirstDecorator(declaration) ?? item, 'default');
}

function visitExportDefaultExpression(host: ModuleItemHost, item: AstNode): void {
  const expression = unwrapExpression(getNode(item, 'expression'));
  if (expression === undefined) return;
  const local = getIdentifierName(expression);
  if (local !== undefined) host.links.addPendingDefault(local, host.positions.spanOf(item));
  else host.links.addExport({ name: 'default', kind: 'default', span: host.positions.spanOf(item), typeOnly: false });
  if (isFunctionNode(expression)) host.functionTargets.set(expression, { name: 'default', spanNode: item });
  if (local !== undefined) host.visitNode(expression);
  else visitTopLevel(host, expression, item, item, 'default');
}

function getDeclarationName(declaration: AstNode, defaultName: string | undefined): string | undefined {
  switch (declaration.type) {
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
      return getIdentifierName(getNode(declaration, 'identifier'));
    case 'FunctionExpression':
    case 'ClassExpression':
      return getIdentifierName(getNode(declaration, 'identifier')) ?? defaultName;
    case 'TsEnumDeclaration':
    case 'TsModuleDeclaration':
      return getIdentifierName(getNode(declaration, 'id'));
    default:
      return defaultName;
  }
}
