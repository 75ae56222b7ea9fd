import type { ImportedName } from '../../model/facts.js';
import {
  type AstNode,
  getIdentifierName,
  getKeyName,
  getNode,
  getNodes,
  getString,
  isAstNode,
  isTrue,
  unwrapExpression,
} from './swc-node.js';

/** swc node keys that hold types, spans or syntax context: nothing a fact is made of. */
export const skippedKeys = new Set([
  'span',
  'ctxt',
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'typeParams',
  'superTypeParams',
  'implements',
  'thisParam',
]);
/** The skipped keys that hold type syntax (annotations, type arguments and parameters, implements clauses). */
export const typeKeys = new Set([...skippedKeys].filter((key) => key !== 'span' && key !== 'ctxt'));
export const logicalOperators = new Set(['&&', '||', '??']);
/** Statements and expressions that add a branch to the enclosing function's complexity. */
export const branchingNodes = new Set([
  'ConditionalExpression',
  'IfStatement',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
]);
export const memberOrFunctionNodes = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'MethodProperty',
  'GetterProperty',
  'SetterProperty',
  'Constructor',
  'ClassMethod',
  'PrivateMethod',
  'ClassProperty',
  'PrivateProperty',
  'KeyValueProperty',
]);
/** Declarations with nothing to collect inside a function body: types, imports and exports are read at the top level. */
export const declarationOnlyNodes = new Set([
  'TsInterfaceDeclaration',
  'TsTypeAliasDeclaration',
  'TsEnumDeclaration',
  'ImportDeclaration',
  'ExportNamedDeclaration',
  'ExportAllDeclaration',
  'TsImportEqualsDeclaration',
  'TsDeclareFunction',
]);

export function getFirstDecorator(declaration: AstNode): AstNode | undefined {
  return getNodes(declaration, 'decorators')[0];
}

export function getModuleExportName(node: AstNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  return getIdentifierName(node) ?? (node.type === 'StringLiteral' ? getString(node, 'value') : undefined);
}

export function getBindingNames(pattern: AstNode | undefined, names: string[] = [], depth = 0): string[] {
  if (pattern === undefined || depth > 50) return names;
  switch (pattern.type) {
    case 'Identifier':
    case 'BindingIdentifier': {
      const name = getString(pattern, 'value');
      if (name !== undefined) names.push(name);
      break;
    }
    case 'ObjectPattern':
      for (const property of getNodes(pattern, 'properties')) {
        if (property.type === 'KeyValuePatternProperty') getBindingNames(getNode(property, 'value'), names, depth + 1);
        else if (property.type === 'AssignmentPatternProperty') getBindingNames(getNode(property, 'key'), names, depth + 1);
        else if (property.type === 'RestElement') getBindingNames(getNode(property, 'argument'), names, depth + 1);
      }
      break;
    case 'ArrayPattern':
      for (const element of getNodes(pattern, 'elements')) getBindingNames(element, names, depth + 1);
      break;
    case 'RestElement':
      getBindingNames(getNode(pattern, 'argument'), names, depth + 1);
      break;
    case 'AssignmentPattern':
      getBindingNames(getNode(pattern, 'left'), names, depth + 1);
      break;
  }
  return names;
}

export function getPatternImports(pattern: AstNode): ImportedName[] {
  const names: ImportedName[] = [];
  for (const property of getNodes(pattern, 'properties')) {
    if (property.type === 'KeyValuePatternProperty') {
      const imported = getKeyName(getNode(property, 'key'));
      const value = getNode(property, 'value');
      const local = getIdentifierName(value?.type === 'AssignmentPattern' ? getNode(value, 'left') : value) ?? imported;
      if (imported !== undefined && local !== undefined) names.push({ imported, local, typeOnly: false });
    } else if (property.type === 'AssignmentPatternProperty') {
      const name = getIdentifierName(getNode(property, 'key'));
      if (name !== undefined) names.push({ imported: name, local: name, typeOnly: false });
    } else if (property.type === 'RestElement') {
      const local = getIdentifierName(getNode(property, 'argument'));
      if (local !== undefined) names.push({ imported: '*', local, typeOnly: false });
    }
  }
  return names;
}

export function getCallbackParams(callback: AstNode): { name: string | undefined }[] {
  const params = Array.isArray(callback.params) ? callback.params.filter(isAstNode) : [];
  return params.map((param) => ({ name: getIdentifierName(param.type === 'Parameter' ? getNode(param, 'pat') : param) }));
}

/** A top-level statement that has no run-time effect: types, `declare`, overload signatures, type-only imports and exports. */
export function isTypeOnlyItem(item: AstNode): boolean {
  switch (item.type) {
    case 'TsInterfaceDeclaration':
    case 'TsTypeAliasDeclaration':
      return true;
    case 'ImportDeclaration': {
      if (isTrue(item, 'typeOnly')) return true;
      const specifiers = getNodes(item, 'specifiers');
      return specifiers.length > 0 && specifiers.every((spec) => isTrue(spec, 'isTypeOnly'));
    }
    case 'ExportNamedDeclaration':
    case 'ExportAllDeclaration':
      return isTrue(item, 'typeOnly');
    case 'ExportDeclaration': {
      const declaration = getNode(item, 'declaration');
      return declaration !== undefined && isTypeOnlyItem(declaration);
    }
    // `export default interface StringSchema<…> {…}` (yup's declaration merging with the class of the same name).
    case 'ExportDefaultDeclaration':
      return getNode(item, 'decl')?.type === 'TsInterfaceDeclaration';
    case 'FunctionDeclaration':
      return isTrue(item, 'declare') || item.body === null;
    case 'VariableDeclaration':
    case 'ClassDeclaration':
    case 'TsEnumDeclaration':
    case 'TsModuleDeclaration':
      return isTrue(item, 'declare');
    default:
      return false;
  }
}

/**
 * A class member that has no run-time effect: an overload signature or an abstract method (a method without a body),
 * a `declare` field, an index signature.
 */
export function isTypeOnlyMember(member: AstNode): boolean {
  switch (member.type) {
    case 'ClassMethod':
    case 'PrivateMethod': {
      // swc's `function` of a method is a record without a `type`.
      const fn = member.function;
      return typeof fn === 'object' && fn !== null && (fn as { body?: unknown }).body == null;
    }
    case 'ClassProperty':
    case 'PrivateProperty':
      return isTrue(member, 'declare');
    case 'TsIndexSignature':
      return true;
    default:
      return false;
  }
}

/** Constructor parameter properties with a class type: `constructor(private readonly users: UsersService)`. */
export function getParameterPropertyTypes(node: AstNode): Map<string, string> {
  const types = new Map<string, string>();
  for (const member of getNodes(node, 'body')) {
    if (member.type !== 'Constructor') continue;
    for (const param of getNodes(member, 'params')) {
      if (param.type !== 'TsParameterProperty') continue;
      const inner = getNode(param, 'param');
      const pattern = inner?.type === 'AssignmentPattern' ? getNode(inner, 'left') : inner;
      const name = getIdentifierName(pattern);
      const annotation = pattern === undefined ? undefined : getNode(getNode(pattern, 'typeAnnotation') ?? pattern, 'typeAnnotation');
      const typeName = annotation?.type === 'TsTypeReference' ? getIdentifierName(getNode(annotation, 'typeName')) : undefined;
      if (name !== undefined && typeName !== undefined) types.set(name, typeName);
    }
  }
  return types;
}

/** `handlers[name]`, `flag ? a : b`, `a || b`: which function runs is decided at run time. */
export function isDynamicReference(node: AstNode): boolean {
  if (
    node.type === 'ConditionalExpression' ||
    (node.type === 'BinaryExpression' && ['||', '??', '&&'].includes(getString(node, 'operator') ?? ''))
  )
    return true;
  if (node.type !== 'MemberExpression') return false;
  if (getNode(node, 'property')?.type === 'Computed') return true;
  const object = unwrapExpression(getNode(node, 'object'));
  return object !== undefined && isDynamicReference(object);
}

/** A route path argument: a string, template, concatenation, constant reference or call (a dynamic path). */
