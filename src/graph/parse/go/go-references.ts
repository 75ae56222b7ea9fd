import { type GoNode, getChild, getChildren } from './go-tree.js';

/** What reference collection needs to know of the file and the function it is in. */
export interface GoScope {
  source: string;
  /** Import local → path. */
  importPaths: ReadonlyMap<string, string>;
  /** Names declared anywhere inside the enclosing top-level function (parameters, `:=`, `var`, ranges, closures). */
  locals: ReadonlySet<string>;
  /** Receiver and parameters typed with a type of the package (`s *Server`): their members are `Server.member`. */
  ownerTypes: ReadonlyMap<string, string>;
}

export interface GoReferences {
  refs: string[];
  statuses: number[];
  complexity: number;
}

/** The statuses whose writing says what code does: validation, authentication, absence, conflict, rate limits. */
const STATUS_CONSTANTS: ReadonlyMap<string, number> = new Map([
  ['StatusBadRequest', 400],
  ['StatusUnauthorized', 401],
  ['StatusForbidden', 403],
  ['StatusNotFound', 404],
  ['StatusConflict', 409],
  ['StatusUnprocessableEntity', 422],
  ['StatusTooManyRequests', 429],
]);
const KNOWN_STATUSES: ReadonlySet<number> = new Set(STATUS_CONSTANTS.values());
/** Echo's prepared errors (`return echo.ErrUnauthorized`). */
const ECHO_ERRORS: ReadonlyMap<string, number> = new Map([
  ['ErrBadRequest', 400],
  ['ErrUnauthorized', 401],
  ['ErrForbidden', 403],
  ['ErrNotFound', 404],
  ['ErrConflict', 409],
  ['ErrUnprocessableEntity', 422],
  ['ErrTooManyRequests', 429],
]);
/** Methods whose status argument may be a plain number (`w.WriteHeader(401)`, `c.JSON(403, ...)`). */
const RESPONDERS: ReadonlySet<string> = new Set([
  'WriteHeader',
  'Error',
  'JSON',
  'String',
  'XML',
  'HTML',
  'Blob',
  'NoContent',
  'Status',
  'AbortWithStatus',
  'AbortWithStatusJSON',
  'AbortWithError',
  'IndentedJSON',
  'SecureJSON',
  'PureJSON',
  'Data',
  'NewHTTPError',
]);
const BRANCHES: ReadonlySet<string> = new Set([
  'if_statement',
  'for_statement',
  'expression_case',
  'type_case',
  'communication_case',
  '&&',
  '||',
]);
/** How many names one function's references keep: a function at the limit may refer to more. */
export const MAX_FUNCTION_REFS = 200;

/** Go's predeclared names: never a declaration of the package. */
export const PREDECLARED: ReadonlySet<string> = new Set(
  (
    'append cap clear close complex copy delete imag len make max min new panic print println real recover ' +
    'any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string ' +
    'uint uint8 uint16 uint32 uint64 uintptr true false iota nil _'
  ).split(' '),
);

/** Every name a function declares inside itself: parameters, results, receiver, `:=`, `var`/`const`, range variables. */
export function collectLocals(node: GoNode, source: string): Set<string> {
  const locals = new Set<string>();
  const add = (name: GoNode | undefined): void => {
    if (name?.type === 'identifier') locals.add(source.slice(name.start, name.end));
  };
  const stack = [node];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    switch (current.type) {
      case 'parameter_declaration':
      case 'variadic_parameter_declaration':
      case 'var_spec':
      case 'const_spec':
        for (const name of getChildren(current, 'name')) add(name);
        break;
      case 'short_var_declaration':
      case 'range_clause':
      case 'type_switch_statement':
        for (const name of (getChild(current, current.type === 'type_switch_statement' ? 'alias' : 'left') ?? current).children) add(name);
        break;
    }
    for (const child of current.children) stack.push(child);
  }
  return locals;
}

/**
 * The names `node` references at run time (sorted): package-level names of this file or of sibling files, imported
 * package members as `pkg.Member`, the receiver's members as `Type.member`; with the statuses it writes and its
 * cyclomatic complexity.
 */
export function collectReferences(node: GoNode, scope: GoScope): GoReferences {
  const refs = new Set<string>();
  const statuses = new Set<number>();
  let complexity = 1;
  const { source, importPaths, locals } = scope;
  const text = (part: GoNode): string => source.slice(part.start, part.end);
  const addRef = (name: string): void => {
    if (refs.size < MAX_FUNCTION_REFS) refs.add(name);
  };
  const stack = [node];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (BRANCHES.has(current.type)) complexity++;
    switch (current.type) {
      case 'identifier': {
        const name = text(current);
        if (!locals.has(name) && !PREDECLARED.has(name) && !importPaths.has(name)) addRef(name);
        continue;
      }
      case 'selector_expression': {
        const operand = getChild(current, 'operand');
        const field = getChild(current, 'field');
        if (operand?.type === 'identifier' && field !== undefined) {
          const owner = text(operand);
          const member = text(field);
          const ownerType = scope.ownerTypes.get(owner);
          if (ownerType !== undefined) addRef(`${ownerType}.${member}`);
          else if (importPaths.has(owner)) {
            addRef(`${owner}.${member}`);
            if (importPaths.get(owner) === 'github.com/labstack/echo/v4') addStatus(statuses, ECHO_ERRORS.get(member));
          } else if (!locals.has(owner) && !PREDECLARED.has(owner)) addRef(owner);
          continue;
        }
        break;
      }
      case 'qualified_type': {
        const owner = getChild(current, 'package');
        const name = getChild(current, 'name');
        if (owner !== undefined && name !== undefined && importPaths.has(text(owner))) addRef(`${text(owner)}.${text(name)}`);
        continue;
      }
      case 'type_identifier':
        if (!PREDECLARED.has(text(current))) addRef(text(current));
        continue;
      case 'keyed_element':
        // A struct literal's keys are field names, not references.
        for (const child of current.children) if (child.field !== 'key') stack.push(child);
        continue;
      case 'call_expression':
        collectStatuses(current, scope, statuses);
        break;
    }
    for (let index = current.children.length - 1; index >= 0; index--) {
      const child = current.children[index];
      if (child !== undefined) stack.push(child);
    }
  }
  return { refs: [...refs].sort(), statuses: [...statuses].sort((left, right) => left - right), complexity };
}

function addStatus(statuses: Set<number>, status: number | undefined): void {
  if (status !== undefined) statuses.add(status);
}

function collectStatuses(call: GoNode, scope: GoScope, statuses: Set<number>): void {
  const args = getChild(call, 'arguments')?.children ?? [];
  const callee = getChild(call, 'function');
  const method = callee?.type === 'selector_expression' ? getChild(callee, 'field') : callee;
  const isResponder = method !== undefined && RESPONDERS.has(scope.source.slice(method.start, method.end));
  for (const arg of args) {
    if (arg.type === 'selector_expression') {
      const operand = getChild(arg, 'operand');
      const field = getChild(arg, 'field');
      if (operand?.type !== 'identifier' || field === undefined) continue;
      if (scope.importPaths.get(scope.source.slice(operand.start, operand.end)) !== 'net/http') continue;
      addStatus(statuses, STATUS_CONSTANTS.get(scope.source.slice(field.start, field.end)));
    } else if (arg.type === 'int_literal' && isResponder) {
      const status = Number(scope.source.slice(arg.start, arg.end));
      if (KNOWN_STATUSES.has(status)) statuses.add(status);
    }
  }
}

/** The receiver and parameters of `fn` whose type is a type of the package (`s *Server`, `h Handler`), by name. */
export function collectOwnerTypes(fn: GoNode, source: string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const list of [getChild(fn, 'receiver'), getChild(fn, 'parameters')]) {
    for (const declaration of list?.children ?? []) {
      let type = getChild(declaration, 'type');
      if (type?.type === 'pointer_type') type = type.children[0];
      if (type?.type !== 'type_identifier') continue;
      const name = source.slice(type.start, type.end);
      if (PREDECLARED.has(name)) continue;
      for (const variable of getChildren(declaration, 'name')) owners.set(source.slice(variable.start, variable.end), name);
    }
  }
  return owners;
}

/** Number of parameters a function declares (`a, b int` is two; a variadic one counts once). */
export function countParameters(parameters: GoNode | undefined): number {
  let count = 0;
  for (const declaration of parameters?.children ?? []) {
    if (declaration.type !== 'parameter_declaration' && declaration.type !== 'variadic_parameter_declaration') continue;
    count += Math.max(1, getChildren(declaration, 'name').length);
  }
  return count;
}
