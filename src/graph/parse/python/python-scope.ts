import type { ImportFact } from '../../../model/facts.js';
import { isTypeCheckingTest, toImportFacts } from './python-imports.js';
import { type Definition, getParts, getText, type PyFile, type PyNode, toDefinition } from './python-tree.js';

/** A statement that runs at module level: at the top, or in a top-level `if`, `try` or `with` block. */
export interface ModuleStatement {
  node: PyNode;
  /** Under `if TYPE_CHECKING:`. */
  typeOnly: boolean;
}

export interface ModuleDeclaration {
  name: string;
  kind: 'function' | 'class' | 'variable';
  /** The whole declaration: decorators included, the assignment statement for a variable. */
  outer: PyNode;
  definition?: Definition;
}

/** What a Python module binds at its top: declarations in order, and its module-level imports. */
export interface ModuleScope {
  statements: ModuleStatement[];
  declarations: ModuleDeclaration[];
  imports: { fact: ImportFact; node: PyNode }[];
}

const compoundStatements = new Set(['if_statement', 'try_statement', 'with_statement']);
const clauses = new Set(['elif_clause', 'else_clause', 'except_clause', 'finally_clause', 'block']);

export function getModuleScope(file: PyFile): ModuleScope {
  const statements: ModuleStatement[] = [];
  const addBlock = (node: PyNode, typeOnly: boolean): void => {
    for (const child of node.children) {
      if (child.type === 'comment') continue;
      if (!compoundStatements.has(child.type)) {
        statements.push({ node: child, typeOnly });
        continue;
      }
      const isTypeChecking = child.type === 'if_statement' && isTypeCheckingTest(file, getParts(child)[0]);
      for (const part of child.children) {
        if (!clauses.has(part.type)) continue;
        if (part.type === 'block') addBlock(part, typeOnly || isTypeChecking);
        else addBlock(part.children.find((clause) => clause.type === 'block') ?? part, typeOnly);
      }
    }
  };
  addBlock(file.root, false);
  const declarations: ModuleDeclaration[] = [];
  const imports: ModuleScope['imports'] = [];
  for (const { node, typeOnly } of statements) {
    const definition = toDefinition(file, node);
    if (definition !== undefined) {
      const kind = definition.node.type === 'class_definition' ? 'class' : 'function';
      declarations.push({ name: definition.name, kind, outer: definition.outer, definition });
    } else if (node.type === 'expression_statement') {
      for (const child of getParts(node)) {
        if (child.type !== 'assignment') continue;
        for (const name of getAssignedNames(file, child)) declarations.push({ name, kind: 'variable', outer: node });
      }
    } else if (node.type === 'import_statement' || node.type === 'import_from_statement') {
      for (const fact of toImportFacts(file, node, typeOnly)) imports.push({ fact, node });
    }
  }
  return { statements, declarations, imports };
}

/** The names an assignment binds (`a = b = 1`, `x, y = pair`); none for an annotation without a value. */
function getAssignedNames(file: PyFile, assignment: PyNode): string[] {
  const [left, ...rest] = getParts(assignment);
  const right = rest.find((part) => part.type !== 'type');
  if (left === undefined || right === undefined) return [];
  const names = getTargetNames(file, left);
  if (right.type === 'assignment') names.push(...getAssignedNames(file, right));
  return names;
}

function getTargetNames(file: PyFile, target: PyNode): string[] {
  if (target.type === 'identifier') return [getText(file, target)];
  if (target.type === 'pattern_list' || target.type === 'tuple_pattern' || target.type === 'list_pattern') {
    return getParts(target).flatMap((part) => getTargetNames(file, part));
  }
  return [];
}

/** The value an assignment stores (the last of a chain `a = b = value`). */
export function getAssignedValue(assignment: PyNode): PyNode | undefined {
  const right = getParts(assignment)
    .slice(1)
    .find((part) => part.type !== 'type');
  return right?.type === 'assignment' ? getAssignedValue(right) : right;
}
