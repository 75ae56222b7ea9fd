import type { CallableFact, FunctionFact } from '../../../model/facts.js';
import type { ModuleScope } from './python-scope.js';
import {
  type Definition,
  getBody,
  getCallParts,
  getDottedName,
  getKeyword,
  getParts,
  getPositional,
  getSpan,
  getText,
  isAsyncDefinition,
  type PyFile,
  type PyNode,
  toDefinition,
} from './python-tree.js';

/** The client-error statuses a handler's responses are checked for. */
const watchedStatuses = new Set([400, 401, 403, 404, 409, 422, 429]);
/** Exceptions that answer with a status when raised (werkzeug, Django, DRF). */
const statusExceptions = new Map([
  ['BadRequest', 400],
  ['SuspiciousOperation', 400],
  ['Unauthorized', 401],
  ['NotAuthenticated', 401],
  ['AuthenticationFailed', 401],
  ['Forbidden', 403],
  ['PermissionDenied', 403],
  ['NotFound', 404],
  ['Http404', 404],
  ['Conflict', 409],
  ['UnprocessableEntity', 422],
  ['TooManyRequests', 429],
  ['Throttled', 429],
]);
/** Calls whose first argument is a status (`abort(404)`, `HTTPException(403)`). */
const statusFirstCallees = new Set(['abort', 'HTTPException', 'HTTPError', 'HttpError', 'StarletteHTTPException']);
/** Branch points of cyclomatic complexity; a `with` is none. */
const branchTypes = new Set([
  'if_statement',
  'elif_clause',
  'for_statement',
  'while_statement',
  'except_clause',
  'boolean_operator',
  'conditional_expression',
  'if_clause',
  'case_clause',
]);
const implicitParameters = new Set(['self', 'cls']);

/** What route reach and change analysis read of a file's code: every top-level def and class and every method. */
export function collectCallables(file: PyFile, scope: ModuleScope): { callables: CallableFact[]; functions: FunctionFact[] } {
  const known = getModuleNames(scope);
  const methods = new Set<string>();
  const classes: { name: string; members: Definition[] }[] = [];
  for (const declaration of scope.declarations) {
    if (declaration.kind !== 'class' || declaration.definition === undefined) continue;
    const members = getMembers(file, declaration.definition);
    for (const member of members) methods.add(`${declaration.name}.${member.name}`);
    classes.push({ name: declaration.name, members });
  }
  const callables: CallableFact[] = [];
  const functions: FunctionFact[] = [];
  const add = (name: string, definition: Definition, owner: string | undefined): void => {
    const reader = new BodyReader(file, known, methods, owner, getParameterNames(file, definition));
    reader.read(definition.node);
    const span = getSpan(file, definition.outer);
    const callable: CallableFact = { name, span, refs: [...reader.refs].sort() };
    if (reader.statuses.size > 0) callable.statuses = [...reader.statuses].sort((left, right) => left - right);
    callables.push(callable);
    if (definition.node.type !== 'function_definition') return;
    functions.push({
      name,
      span,
      complexity: reader.complexity,
      isAsync: isAsyncDefinition(file, definition.node),
      params: getParameterNames(file, definition).filter((parameter) => !implicitParameters.has(parameter)).length,
    });
  };
  const seen = new Set<string>();
  for (const declaration of scope.declarations) {
    if (declaration.definition === undefined || seen.has(declaration.name)) continue;
    seen.add(declaration.name);
    add(declaration.name, declaration.definition, undefined);
    if (declaration.kind !== 'class') continue;
    for (const member of classes.find((entry) => entry.name === declaration.name)?.members ?? []) {
      add(`${declaration.name}.${member.name}`, member, declaration.name);
    }
  }
  return { callables, functions };
}

/** The names a module binds at its top: declarations and imports. */
function getModuleNames(scope: ModuleScope): Set<string> {
  const known = new Set<string>(scope.declarations.map((declaration) => declaration.name));
  for (const { fact } of scope.imports) for (const name of fact.names) if (name.local !== '*') known.add(name.local);
  return known;
}

/** The module names a definition nested anywhere references (a handler declared inside an app factory). */
export function getDefinitionRefs(file: PyFile, scope: ModuleScope, definition: Definition): string[] {
  const reader = new BodyReader(file, getModuleNames(scope), new Set(), undefined, getParameterNames(file, definition));
  reader.read(definition.node);
  return [...reader.refs].sort();
}

/** The methods (and nested classes) declared in a class body. */
export function getMembers(file: PyFile, definition: Definition): Definition[] {
  const body = getBody(definition.node);
  if (body === undefined) return [];
  return body.children.flatMap((child) => {
    const member = toDefinition(file, child);
    return member === undefined ? [] : [member];
  });
}

/** The parameter names of a function, `self` and `cls` included; none for a class. */
export function getParameterNames(file: PyFile, definition: Definition): string[] {
  if (definition.node.type !== 'function_definition') return [];
  const parameters = definition.node.children.find((child) => child.type === 'parameters');
  if (parameters === undefined) return [];
  const names: string[] = [];
  for (const parameter of getParts(parameters)) {
    const name = parameter.type === 'identifier' ? parameter : parameter.children.find((child) => child.type === 'identifier');
    if (name !== undefined) names.push(getText(file, name));
  }
  return names;
}

/** One pass over a definition: the module names it references, the statuses it answers with, its complexity. */
class BodyReader {
  readonly refs = new Set<string>();
  readonly statuses = new Set<number>();
  complexity = 1;

  constructor(
    private readonly file: PyFile,
    private readonly known: ReadonlySet<string>,
    private readonly methods: ReadonlySet<string>,
    private readonly owner: string | undefined,
    private readonly locals: readonly string[],
  ) {}

  read(definition: PyNode): void {
    const [name, ...rest] = definition.children;
    for (const child of name?.type === 'identifier' ? rest : definition.children) this.walk(child);
  }

  private walk(node: PyNode): void {
    if (branchTypes.has(node.type)) this.complexity++;
    switch (node.type) {
      case 'identifier':
        this.addName(getText(this.file, node));
        return;
      case 'attribute': {
        const object = getParts(node)[0];
        if (!this.addAttribute(node) && object !== undefined) this.walk(object);
        return;
      }
      case 'keyword_argument': {
        const [, value] = getParts(node);
        if (value !== undefined) this.walk(value);
        return;
      }
      case 'call':
        this.addCallStatus(node);
        break;
      case 'return_statement':
        this.addReturnStatus(node);
        break;
      case 'raise_statement':
        this.addRaisedStatus(node);
        break;
    }
    for (const child of node.children) this.walk(child);
  }

  private addName(name: string): void {
    if (this.known.has(name) && !this.locals.includes(name)) this.refs.add(name);
  }

  /** `ns.member` for a module name, `Class.method` for `self.method`; false when the chain's root is neither. */
  private addAttribute(node: PyNode): boolean {
    const dotted = getDottedName(this.file, node);
    if (dotted === undefined) return false;
    const [root = '', member = ''] = dotted.split('.');
    if (this.owner !== undefined && implicitParameters.has(root)) {
      if (this.methods.has(`${this.owner}.${member}`)) this.refs.add(`${this.owner}.${member}`);
      return true;
    }
    if (!this.known.has(root) || this.locals.includes(root)) return false;
    this.refs.add(`${root}.${member}`);
    return true;
  }

  private addStatus(node: PyNode | undefined): void {
    const status = toStatus(this.file, node);
    if (status !== undefined) this.statuses.add(status);
  }

  private addCallStatus(node: PyNode): void {
    const { callee, args } = getCallParts(node);
    const name = getDottedName(this.file, callee);
    const last = name?.slice(name.lastIndexOf('.') + 1) ?? '';
    if (statusFirstCallees.has(last)) this.addStatus(getPositional(args)[0]);
    if (last === 'make_response') this.addStatus(getPositional(args)[1]);
    this.addStatus(getKeyword(this.file, args, 'status_code'));
    this.addStatus(getKeyword(this.file, args, 'status'));
    this.addStatus(getKeyword(this.file, args, 'code'));
  }

  /** `return body, 401` and `return body, 401, headers` (Flask). */
  private addReturnStatus(node: PyNode): void {
    const value = getParts(node)[0];
    if (value?.type !== 'expression_list' && value?.type !== 'tuple') return;
    this.addStatus(getParts(value)[1]);
  }

  private addRaisedStatus(node: PyNode): void {
    const raised = getParts(node)[0];
    const target = raised?.type === 'call' ? getCallParts(raised).callee : raised;
    const name = getDottedName(this.file, target);
    const status = name === undefined ? undefined : statusExceptions.get(name.slice(name.lastIndexOf('.') + 1));
    if (status !== undefined) this.statuses.add(status);
  }
}

/** A watched status from an integer literal or a named constant (`status.HTTP_404_NOT_FOUND`, `HTTPStatus.NOT_FOUND`). */
function toStatus(file: PyFile, node: PyNode | undefined): number | undefined {
  if (node === undefined) return undefined;
  let value: number | undefined;
  if (node.type === 'integer') value = Number(getText(file, node));
  else if (node.type === 'attribute') {
    const name = getDottedName(file, node) ?? '';
    const match = /HTTP_(\d{3})(?:_|$)/.exec(name);
    value = match === null ? httpStatusNames.get(name.slice(name.lastIndexOf('.') + 1)) : Number(match[1]);
  }
  return value !== undefined && watchedStatuses.has(value) ? value : undefined;
}

/** `http.HTTPStatus` member names of the watched statuses. */
const httpStatusNames = new Map([
  ['BAD_REQUEST', 400],
  ['UNAUTHORIZED', 401],
  ['FORBIDDEN', 403],
  ['NOT_FOUND', 404],
  ['CONFLICT', 409],
  ['UNPROCESSABLE_ENTITY', 422],
  ['UNPROCESSABLE_CONTENT', 422],
  ['TOO_MANY_REQUESTS', 429],
]);
