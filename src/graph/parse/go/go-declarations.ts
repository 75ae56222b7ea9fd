import type { ConstantFact, ExportFact, ExportKind, ImportFact, PathPart, Span } from '../../../model/facts.js';
import { findChild, type GoLines, type GoNode, getChild, getChildren, toStringValue } from './go-tree.js';

/** A top-level function or method: `name` is `Type.Method` for a method. */
export interface GoFunction {
  name: string;
  node: GoNode;
  /** The method's receiver type (`Server` for `func (s *Server)`), undefined for a function. */
  receiverType: string | undefined;
  /** The receiver's variable (`s`), undefined for a function or an unnamed receiver. */
  receiverName: string | undefined;
}

/** What the top level of a Go file declares and imports. */
export interface GoDeclarations {
  packageName: string;
  imports: ImportFact[];
  /** Local name of each import → its path (`chi` → `github.com/go-chi/chi/v5`). */
  importPaths: Map<string, string>;
  exports: ExportFact[];
  constants: ConstantFact[];
  functions: GoFunction[];
  /** Names of the package-level functions, types, constants and variables of this file. */
  topLevel: Set<string>;
  /** Package-level variables, by name, with their initial value when there is one per name. */
  variables: Map<string, GoNode | undefined>;
  /**
   * Lines of type declarations that hold no runtime data of their own: an alias (`type F = func(…)`), a function type,
   * an interface. A struct's fields (zero values, tags read by reflection) and a named basic type are left out.
   */
  typeSpans: Span[];
}

const MAJOR_VERSION = /^v\d+$/;

/** The name a Go import binds by default: the path's last segment, or the one before a `/vN` major-version suffix. */
function getDefaultImportName(path: string): string {
  const segments = path.split('/');
  let last = segments[segments.length - 1] ?? path;
  if (MAJOR_VERSION.test(last) && segments.length > 1) last = segments[segments.length - 2] ?? last;
  // `gopkg.in/yaml.v3` binds `yaml`.
  return last.replace(/\.v\d+$/, '');
}

function isExportedName(name: string): boolean {
  const code = name.charCodeAt(0);
  return code >= 65 && code <= 90;
}

export function collectDeclarations(root: GoNode, source: string, lines: GoLines): GoDeclarations {
  const declarations: GoDeclarations = {
    packageName: '',
    imports: [],
    importPaths: new Map(),
    exports: [],
    constants: [],
    functions: [],
    topLevel: new Set(),
    variables: new Map(),
    typeSpans: [],
  };
  let packageLine = 1;
  const text = (node: GoNode): string => source.slice(node.start, node.end);
  for (const node of root.children) {
    switch (node.type) {
      case 'package_clause': {
        const name = findChild(node, 'package_identifier');
        if (name !== undefined) declarations.packageName = text(name);
        packageLine = lines.lineOf(node.start);
        break;
      }
      case 'import_declaration':
        for (const spec of collectImportSpecs(node)) addImport(declarations, spec, source, lines);
        break;
      case 'function_declaration':
        addFunction(declarations, node, source, lines);
        break;
      case 'method_declaration':
        addMethod(declarations, node, source, lines);
        break;
      case 'type_declaration':
        for (const spec of node.children) addType(declarations, spec, source, lines);
        if (node.children.every(isDataFreeType)) declarations.typeSpans.push(lines.spanOf(node));
        break;
      case 'const_declaration':
      case 'var_declaration':
        for (const spec of collectSpecs(node)) addValueSpec(declarations, spec, node.type === 'const_declaration', source, lines);
        break;
    }
  }
  if (!declarations.packageName.endsWith('_test')) {
    declarations.imports.push({
      specifier: '.',
      kind: 'static',
      typeOnly: false,
      names: [{ imported: '*', local: '.', typeOnly: false }],
      line: packageLine,
    });
  }
  return declarations;
}

function collectImportSpecs(node: GoNode): GoNode[] {
  const specs: GoNode[] = [];
  for (const child of node.children) {
    if (child.type === 'import_spec') specs.push(child);
    else if (child.type === 'import_spec_list') for (const spec of child.children) if (spec.type === 'import_spec') specs.push(spec);
  }
  return specs;
}

function collectSpecs(node: GoNode): GoNode[] {
  const specs: GoNode[] = [];
  for (const child of node.children) {
    if (child.type === 'const_spec' || child.type === 'var_spec') specs.push(child);
    else if (child.type === 'var_spec_list') for (const spec of child.children) if (spec.type === 'var_spec') specs.push(spec);
  }
  return specs;
}

function addImport(declarations: GoDeclarations, spec: GoNode, source: string, lines: GoLines): void {
  const pathNode = getChild(spec, 'path');
  const path = pathNode === undefined ? undefined : toStringValue(pathNode, source);
  if (path === undefined) return;
  const alias = getChild(spec, 'name');
  const local = alias === undefined ? getDefaultImportName(path) : source.slice(alias.start, alias.end);
  declarations.imports.push({
    specifier: path,
    kind: 'static',
    typeOnly: false,
    names: [{ imported: '*', local, typeOnly: false }],
    line: lines.lineOf(spec.start),
  });
  if (local !== '_' && local !== '.') declarations.importPaths.set(local, path);
}

function addExport(declarations: GoDeclarations, name: string, kind: ExportKind, node: GoNode, lines: GoLines): void {
  declarations.topLevel.add(name);
  if (isExportedName(name)) declarations.exports.push({ name, kind, span: lines.spanOf(node), typeOnly: false });
}

function addFunction(declarations: GoDeclarations, node: GoNode, source: string, lines: GoLines): void {
  const nameNode = getChild(node, 'name');
  if (nameNode === undefined) return;
  const name = source.slice(nameNode.start, nameNode.end);
  // `init` may be declared many times and is never referenced; `_` declares nothing.
  if (name !== 'init' && name !== '_') addExport(declarations, name, 'function', node, lines);
  declarations.functions.push({ name, node, receiverType: undefined, receiverName: undefined });
}

function addMethod(declarations: GoDeclarations, node: GoNode, source: string, lines: GoLines): void {
  const nameNode = getChild(node, 'name');
  const receiver = getChild(node, 'receiver')?.children.find((child) => child.type === 'parameter_declaration');
  if (nameNode === undefined || receiver === undefined) return;
  const receiverType = getTypeName(getChild(receiver, 'type'), source);
  if (receiverType === undefined) return;
  const receiverNameNode = getChild(receiver, 'name');
  const method = source.slice(nameNode.start, nameNode.end);
  const name = `${receiverType}.${method}`;
  if (isExportedName(method)) declarations.exports.push({ name, kind: 'function', span: lines.spanOf(node), typeOnly: false });
  declarations.functions.push({
    name,
    node,
    receiverType,
    receiverName: receiverNameNode === undefined ? undefined : source.slice(receiverNameNode.start, receiverNameNode.end),
  });
}

/** `Server` of `Server`, `*Server`, `Server[T]`, `*Server[K, V]`. */
function getTypeName(node: GoNode | undefined, source: string): string | undefined {
  let type = node;
  while (type !== undefined && (type.type === 'pointer_type' || type.type === 'generic_type' || type.type === 'parenthesized_type')) {
    type = type.type === 'generic_type' ? getChild(type, 'type') : type.children[0];
  }
  return type?.type === 'type_identifier' ? source.slice(type.start, type.end) : undefined;
}

/** A type spec that declares no runtime data: an alias, a function type, an interface (keywords and brackets pass). */
function isDataFreeType(spec: GoNode): boolean {
  if (spec.type === 'type_alias') return true;
  if (spec.type !== 'type_spec') return spec.children.length === 0;
  const shape = getChild(spec, 'type')?.type;
  return shape === 'function_type' || shape === 'interface_type';
}

function addType(declarations: GoDeclarations, spec: GoNode, source: string, lines: GoLines): void {
  if (spec.type !== 'type_spec' && spec.type !== 'type_alias') return;
  const nameNode = getChild(spec, 'name');
  if (nameNode === undefined) return;
  const shape = getChild(spec, 'type')?.type;
  const kind: ExportKind = shape === 'struct_type' ? 'class' : shape === 'interface_type' ? 'interface' : 'type';
  addExport(declarations, source.slice(nameNode.start, nameNode.end), kind, spec, lines);
}

function addValueSpec(declarations: GoDeclarations, spec: GoNode, isConst: boolean, source: string, lines: GoLines): void {
  const names = getChildren(spec, 'name');
  const values = getChild(spec, 'value')?.children ?? [];
  names.forEach((nameNode, index) => {
    const name = source.slice(nameNode.start, nameNode.end);
    if (name === '_') return;
    addExport(declarations, name, 'variable', spec, lines);
    const value = names.length === values.length ? values[index] : undefined;
    if (!isConst) declarations.variables.set(name, value);
    if (!isConst || value === undefined) return;
    const parts = toPathParts(value, source);
    if (parts?.some((part) => 'text' in part) === true) declarations.constants.push({ name, parts });
  });
}

/** A string constant's parts: literals, references to other constants, and their `+` concatenations. */
export function toPathParts(node: GoNode, source: string, depth = 0): PathPart[] | undefined {
  if (depth > 20) return undefined;
  const literal = toStringValue(node, source);
  if (literal !== undefined) return [{ text: literal }];
  if (node.type === 'identifier') return [{ ref: source.slice(node.start, node.end) }];
  if (node.type === 'selector_expression') {
    const operand = getChild(node, 'operand');
    const field = getChild(node, 'field');
    if (operand?.type !== 'identifier' || field === undefined) return undefined;
    return [{ ref: source.slice(operand.start, field.end).replace(/\s+/g, '') }];
  }
  if (node.type === 'parenthesized_expression' && node.children.length === 1 && node.children[0] !== undefined)
    return toPathParts(node.children[0], source, depth + 1);
  if (node.type !== 'binary_expression') return undefined;
  const left = getChild(node, 'left');
  const right = getChild(node, 'right');
  if (left === undefined || right === undefined || !/^\s*\+/.test(source.slice(left.end, right.start))) return undefined;
  const head = toPathParts(left, source, depth + 1);
  const tail = head === undefined ? undefined : toPathParts(right, source, depth + 1);
  return head === undefined || tail === undefined ? undefined : [...head, ...tail];
}
