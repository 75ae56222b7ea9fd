import type { ExportFact, ExportKind, ImportedName, ImportFact, Span } from '../../model/facts.js';
import type { SignalCollector } from './signal-collector.js';
import { isDateModule } from './signal-rules.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getKeyName,
  getNode,
  getNodes,
  getPropertyName,
  getStaticString,
  getString,
  isFunctionNode,
  isTrue,
  unwrapExpression,
} from './swc-node.js';
import { getBindingNames, getModuleExportName, getPatternImports } from './walker-patterns.js';

/**
 * Modules whose binding asserts when called: node's assert and its drop-ins, and the libraries whose export is a
 * subject an assertion chains on (`assume(x).equals(y)`, winston's suites; `demand(x).must.equal(y)`).
 */
const assertModules = new Set([
  'assert',
  'assert/strict',
  'node:assert',
  'node:assert/strict',
  'power-assert',
  'uvu/assert',
  'assume',
  'better-assert',
  'must',
  'unexpected',
]);
const assertExportNames = new Set(['assert', 'strict']);

/** A function or class the walker records under a name it cannot read from the node itself. */
export interface FunctionTarget {
  name: string;
  spanNode: AstNode;
}

export interface DeclaredName {
  name: string;
  kind: ExportKind;
  span: Span;
  typeOnly: boolean;
}

/** A top-level declaration's facts, by its name (the first declaration of a name wins). */
export interface LocalDeclaration {
  kind: ExportKind;
  span: Span;
  typeOnly: boolean;
}

/** An export whose facts depend on declarations or imports met later: `export { a }`, `export default a`, CommonJS. */
export interface PendingExport {
  name: string;
  local: string;
  kind: 'named' | 'default' | 'cjs';
  span: Span;
  typeOnly: boolean;
}

export interface ImportBinding {
  specifier: string;
  imported: string;
}

/** Imports, exports and top-level declarations of one module: ESM, CommonJS and `import x = require()`. */
export class ModuleLinks {
  readonly imports: ImportFact[] = [];
  readonly exports: ExportFact[] = [];
  readonly importBindings = new Map<string, ImportBinding>();
  readonly assertNames = new Set<string>(['assert']);
  /** `require()` and `import()` calls already recorded through the binding they initialise. */
  readonly consumedCalls = new Set<AstNode>();
  private readonly declarations = new Map<string, LocalDeclaration>();
  private readonly pendingExports: PendingExport[] = [];

  constructor(
    private readonly positions: SourcePositions,
    private readonly signals: SignalCollector,
    private readonly functionTargets: Map<AstNode, FunctionTarget>,
  ) {}

  recordDeclaration(declaration: AstNode, statement: AstNode, spanStart: AstNode): DeclaredName[] {
    const declared: DeclaredName[] = [];
    const add = (name: string | undefined, kind: ExportKind, span: Span, typeOnly: boolean): void => {
      if (name === undefined) return;
      declared.push({ name, kind, span, typeOnly });
      if (!this.declarations.has(name)) this.declarations.set(name, { kind, span, typeOnly });
    };
    const statementSpan = this.positions.spanOf(statement, spanStart);
    switch (declaration.type) {
      case 'FunctionDeclaration':
        add(getIdentifierName(getNode(declaration, 'identifier')), 'function', statementSpan, false);
        break;
      case 'ClassDeclaration':
        add(getIdentifierName(getNode(declaration, 'identifier')), 'class', statementSpan, false);
        break;
      case 'TsInterfaceDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'interface', statementSpan, true);
        break;
      case 'TsTypeAliasDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'type', statementSpan, true);
        break;
      case 'TsEnumDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'enum', statementSpan, false);
        break;
      case 'TsModuleDeclaration':
        add(getIdentifierName(getNode(declaration, 'id')), 'namespace', statementSpan, false);
        break;
      case 'VariableDeclaration': {
        const declarators = getNodes(declaration, 'declarations');
        for (const declarator of declarators) {
          const span = declarators.length === 1 ? statementSpan : this.positions.spanOf(declarator);
          const id = getNode(declarator, 'id');
          for (const name of getBindingNames(id)) add(name, 'variable', span, false);
          const init = unwrapExpression(getNode(declarator, 'init'));
          const name = getIdentifierName(id);
          if (name !== undefined && init !== undefined && isFunctionNode(init)) {
            this.functionTargets.set(init, { name, spanNode: declarators.length === 1 ? statement : declarator });
          }
        }
        break;
      }
    }
    return declared;
  }

  addExport(fact: ExportFact): void {
    this.exports.push(fact);
  }

  /** `export default name`: resolved at the end, once every declaration is known. */
  addPendingDefault(local: string, span: Span): void {
    this.pendingExports.push({ name: 'default', local, kind: 'default', span, typeOnly: false });
  }

  /** `const {a} = require('x')`, `const m = await import('x')`, `const b = require('x').b`. */
  recordBindingImport(id: AstNode | undefined, init: AstNode): void {
    let value = init;
    let member: string | undefined;
    if (value.type === 'AwaitExpression') value = unwrapExpression(getNode(value, 'argument')) ?? value;
    if (value.type === 'MemberExpression') {
      member = getPropertyName(value);
      value = unwrapExpression(getNode(value, 'object')) ?? value;
    }
    const call = matchModuleCall(value);
    if (call === undefined || id === undefined) return;
    let names: ImportedName[];
    if (member !== undefined) {
      names = [{ imported: member, local: getIdentifierName(id) ?? member, typeOnly: false }];
    } else if (id.type === 'ObjectPattern') {
      names = getPatternImports(id);
    } else {
      names = [{ imported: '*', local: getIdentifierName(id) ?? '*', typeOnly: false }];
    }
    this.consumedCalls.add(value);
    this.pushImport(call.specifier, call.kind, false, names, value);
  }

  /** A statement that is only `require('x')` or `await import('x')`; false for any other expression. */
  recordSideEffectImport(expression: AstNode): boolean {
    const moduleCall = matchModuleCall(expression);
    if (moduleCall === undefined) return false;
    this.consumedCalls.add(expression);
    this.pushImport(moduleCall.specifier, moduleCall.kind, false, [], expression);
    return true;
  }

  pushImport(specifier: string, kind: ImportFact['kind'], typeOnly: boolean, names: ImportedName[], node: AstNode): void {
    const allTypes = names.length > 0 && names.every((name) => name.typeOnly);
    this.imports.push({ specifier, kind, typeOnly: typeOnly || allTypes, names, line: this.positions.startLine(node) });
    const isDateLibrary = isDateModule(specifier);
    for (const name of names) {
      if (name.local === '*' || kind === 'reexport' || kind === 'reexport-all') continue;
      if (isDateLibrary) this.signals.addDateBinding(name.local);
      this.importBindings.set(name.local, { specifier, imported: name.imported });
      const isAssertModule = assertModules.has(specifier);
      const isAssertExport = (specifier === 'chai' || specifier === 'vitest') && assertExportNames.has(name.imported);
      if (isAssertModule || isAssertExport) this.assertNames.add(name.local);
    }
  }

  recordImportDeclaration(node: AstNode): void {
    const specifier = getString(getNode(node, 'source') ?? node, 'value');
    if (specifier === undefined) return;
    const typeOnly = isTrue(node, 'typeOnly');
    const names: ImportedName[] = [];
    for (const spec of getNodes(node, 'specifiers')) {
      const local = getIdentifierName(getNode(spec, 'local'));
      if (local === undefined) continue;
      if (spec.type === 'ImportDefaultSpecifier') names.push({ imported: 'default', local, typeOnly });
      else if (spec.type === 'ImportNamespaceSpecifier') names.push({ imported: '*', local, typeOnly });
      else {
        const imported = getModuleExportName(getNode(spec, 'imported')) ?? local;
        names.push({ imported, local, typeOnly: typeOnly || isTrue(spec, 'isTypeOnly') });
      }
    }
    this.pushImport(specifier, 'static', typeOnly, names, node);
  }

  recordExportAll(node: AstNode): void {
    const specifier = getString(getNode(node, 'source') ?? node, 'value');
    if (specifier === undefined) return;
    const typeOnly = isTrue(node, 'typeOnly');
    this.pushImport(specifier, 'reexport-all', typeOnly, [{ imported: '*', local: '*', typeOnly }], node);
  }

  recordExportNamed(node: AstNode): void {
    const source = getNode(node, 'source');
    const specifier = source === undefined ? undefined : getString(source, 'value');
    const typeOnly = isTrue(node, 'typeOnly');
    const span = this.positions.spanOf(node);
    const names: ImportedName[] = [];
    for (const spec of getNodes(node, 'specifiers')) {
      const named = getExportSpecifier(spec, typeOnly);
      if (named === undefined) continue;
      const { imported, exported } = named;
      if (specifier === undefined) {
        this.pendingExports.push({ name: exported, local: imported, kind: 'named', span, typeOnly: named.typeOnly });
        continue;
      }
      names.push({ imported, local: exported, typeOnly: named.typeOnly });
      this.exports.push({ name: exported, kind: 'reexport', span, typeOnly: named.typeOnly, from: specifier, imported });
    }
    if (specifier !== undefined) this.pushImport(specifier, 'reexport', typeOnly, names, node);
  }

  recordImportEquals(node: AstNode): void {
    const reference = getNode(node, 'moduleRef');
    if (reference?.type !== 'TsExternalModuleReference') return;
    const specifier = getStaticString(getNode(reference, 'expression'));
    const local = getIdentifierName(getNode(node, 'id'));
    if (specifier === undefined || local === undefined) return;
    const typeOnly = isTrue(node, 'isTypeOnly');
    this.pushImport(specifier, 'import-equals', typeOnly, [{ imported: '*', local, typeOnly }], node);
  }

  /** `module.exports = {a, b}` exports `a` and `b`; any other value is the `default` export. */
  recordCommonJsValue(value: AstNode, statement: AstNode): void {
    const target = unwrapExpression(value);
    if (target?.type === 'ObjectExpression') {
      for (const property of getNodes(target, 'properties')) {
        if (property.type === 'SpreadElement') continue;
        const key = getKeyName(property.type === 'Identifier' ? property : getNode(property, 'key'));
        if (key === undefined) continue;
        const local = property.type === 'Identifier' ? key : getIdentifierName(unwrapExpression(getNode(property, 'value')));
        const value = getNode(property, 'value');
        const span =
          property.type === 'KeyValueProperty' && value !== undefined
            ? this.positions.spanOf(value, getNode(property, 'key'))
            : this.positions.spanOf(property);
        this.pushCommonJsExport(key, local, span);
      }
      return;
    }
    this.pushCommonJsExport('default', getIdentifierName(target), this.positions.spanOf(statement));
  }

  /** `module.exports = …`, `exports.name = …` and `module.exports.name = …`. */
  recordCommonJsAssignment(node: AstNode, left: AstNode | undefined, right: AstNode | undefined): void {
    if (left?.type !== 'MemberExpression' || right === undefined) return;
    const target = getDottedName(left);
    if (target === 'module.exports') this.recordCommonJsValue(right, node);
    else if (target !== undefined && /^(module\.)?exports\.[^.]+$/.test(target)) {
      const name = target.slice(target.lastIndexOf('.') + 1);
      this.pushCommonJsExport(name, getIdentifierName(unwrapExpression(right)), this.positions.spanOf(node));
    }
  }

  private pushCommonJsExport(name: string, local: string | undefined, span: Span): void {
    pushCommonJsExport(this.exports, this.pendingExports, { name, local, span });
  }

  resolvePendingExports(): void {
    for (const pending of this.pendingExports) this.exports.push(resolvePendingExport(pending, this.declarations, this.importBindings));
  }
}

/**
 * `exports.name = …`: a name already exported (or pending) the CommonJS way keeps its first assignment; one assigned a
 * local binding waits for the declarations (its span is the declaration's). Shared with the link scanner (link-scan/scan.ts).
 */
export function pushCommonJsExport(
  exports: ExportFact[],
  pending: PendingExport[],
  entry: { name: string; local: string | undefined; span: Span },
): void {
  const { name, local, span } = entry;
  if (exports.some((fact) => fact.kind === 'cjs' && fact.name === name)) return;
  if (pending.some((fact) => fact.kind === 'cjs' && fact.name === name)) return;
  if (local !== undefined) pending.push({ name, local, kind: 'cjs', span, typeOnly: false });
  else exports.push({ name, kind: 'cjs', span, typeOnly: false });
}

/** A pending export once every declaration and import binding of the module is known. Shared with link-scan/scan.ts. */
export function resolvePendingExport(
  pending: PendingExport,
  declarations: ReadonlyMap<string, LocalDeclaration>,
  bindings: ReadonlyMap<string, ImportBinding>,
): ExportFact {
  const declaration = declarations.get(pending.local);
  const withLocal = (fact: ExportFact): ExportFact =>
    declaration !== undefined && pending.local !== fact.name ? { ...fact, local: pending.local } : fact;
  if (pending.kind === 'cjs') {
    return withLocal({ name: pending.name, kind: 'cjs', span: declaration?.span ?? pending.span, typeOnly: false });
  }
  if (pending.kind === 'default') {
    return withLocal({
      name: 'default',
      kind: 'default',
      span: declaration?.span ?? pending.span,
      typeOnly: declaration?.typeOnly ?? false,
    });
  }
  if (declaration !== undefined) {
    return withLocal({
      name: pending.name,
      kind: declaration.kind,
      span: declaration.span,
      typeOnly: pending.typeOnly || declaration.typeOnly,
    });
  }
  const binding = bindings.get(pending.local);
  if (binding !== undefined) {
    return {
      name: pending.name,
      kind: 'reexport',
      span: pending.span,
      typeOnly: pending.typeOnly,
      from: binding.specifier,
      imported: binding.imported,
    };
  }
  return { name: pending.name, kind: 'variable', span: pending.span, typeOnly: pending.typeOnly };
}

function getExportSpecifier(spec: AstNode, typeOnly: boolean): { imported: string; exported: string; typeOnly: boolean } | undefined {
  let imported: string | undefined;
  let exported: string | undefined;
  let specTypeOnly = typeOnly;
  if (spec.type === 'ExportSpecifier') {
    imported = getModuleExportName(getNode(spec, 'orig'));
    exported = getModuleExportName(getNode(spec, 'exported')) ?? imported;
    specTypeOnly = typeOnly || isTrue(spec, 'isTypeOnly');
  } else if (spec.type === 'ExportNamespaceSpecifier') {
    imported = '*';
    exported = getModuleExportName(getNode(spec, 'name'));
  } else if (spec.type === 'ExportDefaultSpecifier') {
    imported = 'default';
    exported = getModuleExportName(getNode(spec, 'exported'));
  }
  if (imported === undefined || exported === undefined) return undefined;
  return { imported, exported, typeOnly: specTypeOnly };
}

function matchModuleCall(node: AstNode): { specifier: string; kind: 'require' | 'dynamic' } | undefined {
  if (node.type !== 'CallExpression') return undefined;
  const callee = getNode(node, 'callee');
  const args = getExpressions(node, 'arguments');
  const specifier = getStaticString(unwrapExpression(args[0]));
  if (specifier === undefined) return undefined;
  if (callee?.type === 'Import') return { specifier, kind: 'dynamic' };
  if (getIdentifierName(unwrapExpression(callee)) === 'require' && args.length === 1) return { specifier, kind: 'require' };
  return undefined;
}
