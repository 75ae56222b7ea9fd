import {
  type AstNode,
  getDottedName,
  getExpressions,
  getKeyName,
  getNode,
  getNodes,
  getPropertyName,
  getStaticString,
  getString,
  isFunctionNode,
  unwrapExpression,
} from './swc-node.js';
import type { TestModifier } from '../../model/facts.js';

export interface TestCallMatch {
  kind: 'suite' | 'test';
  title: string;
  modifiers: TestModifier[];
  callback: AstNode | undefined;
}

const baseNames = new Map<string, { kind: 'suite' | 'test'; modifier?: TestModifier }>([
  ['describe', { kind: 'suite' }],
  ['suite', { kind: 'suite' }],
  ['context', { kind: 'suite' }],
  ['it', { kind: 'test' }],
  ['test', { kind: 'test' }],
  ['specify', { kind: 'test' }],
  ['xit', { kind: 'test', modifier: 'skip' }],
  ['xtest', { kind: 'test', modifier: 'skip' }],
  ['xspecify', { kind: 'test', modifier: 'skip' }],
  ['xdescribe', { kind: 'suite', modifier: 'skip' }],
  ['xcontext', { kind: 'suite', modifier: 'skip' }],
  ['xsuite', { kind: 'suite', modifier: 'skip' }],
  ['fit', { kind: 'test', modifier: 'only' }],
  ['fdescribe', { kind: 'suite', modifier: 'only' }],
]);

const NO_NAMES: ReadonlySet<string> = new Set();
const TEST_BASE: { kind: 'suite' | 'test'; modifier?: TestModifier } = { kind: 'test' };

/** The names a runner gives its test and suite functions (`test`, `it`, `describe`, `xit`, …). */
export const TEST_FUNCTION_NAMES: ReadonlySet<string> = new Set(baseNames.keys());

const chainModifiers = new Map<string, TestModifier | undefined>([
  ['skip', 'skip'],
  ['only', 'only'],
  ['todo', 'todo'],
  ['fixme', 'skip'],
  ['concurrent', undefined],
  ['sequential', undefined],
  ['serial', undefined],
  ['parallel', undefined],
  ['fails', undefined],
  ['each', undefined],
  ['for', undefined],
  ['skipIf', 'conditional'],
  ['runIf', 'conditional'],
  ['shuffle', undefined],
]);

const curriedModifiers = new Set(['each', 'for', 'skipIf', 'runIf']);

/**
 * Recognises `describe/it/test` calls with their modifier chains (`it.skip`, `test.each(t)(…)`,
 * `xit`, `describe.only`), Playwright's `test.describe`, and node:test subtests `t.test(…)` where
 * `t` is one of `contextNames`; `testNames` are the file's own names for a runner's `test` (tape's `const tape =
 * require('tape')`, then `tape('x', …)`).
 */
export function matchTestCall(
  call: AstNode,
  contextNames: ReadonlySet<string>,
  testNames: ReadonlySet<string> = NO_NAMES,
): TestCallMatch | undefined {
  const rootName = findRootName(getNode(call, 'callee'));
  if (rootName === undefined || (!baseNames.has(rootName) && !contextNames.has(rootName) && !testNames.has(rootName))) return undefined;
  let callee = unwrapExpression(getNode(call, 'callee'));
  const modifiers = new Set<TestModifier>();
  const properties: string[] = [];
  let root: string | undefined;
  for (let depth = 0; callee !== undefined && depth < 8 && root === undefined; depth++) {
    if (callee.type === 'CallExpression' || callee.type === 'TaggedTemplateExpression') {
      const inner = unwrapExpression(getNode(callee, callee.type === 'CallExpression' ? 'callee' : 'tag'));
      if (inner === undefined || inner.type !== 'MemberExpression') return undefined;
      const property = getPropertyName(inner);
      if (property === undefined || !curriedModifiers.has(property)) return undefined;
      callee = inner;
    } else if (callee.type === 'MemberExpression') {
      const property = getPropertyName(callee);
      if (property === undefined) return undefined;
      properties.unshift(property);
      callee = unwrapExpression(getNode(callee, 'object'));
    } else if (callee.type === 'Identifier') {
      root = getString(callee, 'value');
    } else return undefined;
  }
  if (root === undefined) return undefined;
  let kind: 'suite' | 'test';
  const base = baseNames.get(root) ?? (testNames.has(root) ? TEST_BASE : undefined);
  if (contextNames.has(root) && properties[0] === 'test') {
    kind = 'test';
    properties.shift();
  } else if (base !== undefined) {
    kind = base.kind;
    if (base.modifier !== undefined) modifiers.add(base.modifier);
  } else return undefined;
  for (const property of properties) {
    if (property === 'describe' && (root === 'test' || root === 'it')) {
      kind = 'suite';
      continue;
    }
    if (!chainModifiers.has(property)) return undefined;
    const modifier = chainModifiers.get(property);
    if (modifier !== undefined) modifiers.add(modifier);
  }
  const args = getExpressions(call, 'arguments');
  const title = getTitle(args[0]);
  if (title === undefined) return undefined;
  let callback: AstNode | undefined;
  for (const arg of args.slice(1)) {
    const value = unwrapExpression(arg);
    if (isFunctionNode(value)) callback = value;
    else if (value?.type === 'ObjectExpression') addOptionModifiers(value, modifiers);
  }
  const isStaticTitle = getStaticString(args[0]) !== undefined;
  if (callback === undefined && !modifiers.has('todo') && !(kind === 'test' && isStaticTitle)) return undefined;
  return { kind, title, modifiers: [...modifiers].sort(), callback };
}

/** The identifier at the root of a call's callee chain (`test` of `test.skip.each(t)(…)`), without allocating. */
export function findTestRootName(call: AstNode): string | undefined {
  return findRootName(getNode(call, 'callee'));
}

/** Cheap pre-check: the identifier at the root of a callee chain, without allocating. */
function findRootName(node: AstNode | undefined): string | undefined {
  let current = node;
  for (let depth = 0; current !== undefined && depth < 12; depth++) {
    switch (current.type) {
      case 'Identifier':
        return getString(current, 'value');
      case 'MemberExpression':
      case 'ParenthesisExpression':
        current = getNode(current, current.type === 'MemberExpression' ? 'object' : 'expression');
        break;
      case 'CallExpression':
        current = getNode(current, 'callee');
        break;
      case 'TaggedTemplateExpression':
        current = getNode(current, 'tag');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

function getTitle(node: AstNode | undefined): string | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  const text = getStaticString(value);
  if (text !== undefined) return text;
  if (value.type === 'TemplateLiteral') {
    const quasis = getNodes(value, 'quasis').map((quasi) => getString(quasi, 'cooked') ?? getString(quasi, 'raw') ?? '');
    return quasis.join('${…}');
  }
  if (value.type === 'Identifier' || value.type === 'MemberExpression') return getDottedName(value);
  return undefined;
}

function addOptionModifiers(options: AstNode, modifiers: Set<TestModifier>): void {
  for (const property of getNodes(options, 'properties')) {
    if (property.type !== 'KeyValueProperty') continue;
    const key = getKeyName(getNode(property, 'key'));
    if (key !== 'skip' && key !== 'todo' && key !== 'only') continue;
    const value = unwrapExpression(getNode(property, 'value'));
    const isSet =
      (value?.type === 'BooleanLiteral' && value.value === true) || (value?.type === 'StringLiteral' && getString(value, 'value') !== '');
    if (isSet) modifiers.add(key);
  }
}

const expectErrorDirective = /^\s*\{?\s*(?:\/\/+|\/\*+)\s*@ts-expect-error(?![\w-])/;

/**
 * 0-based lines holding a `// @ts-expect-error` (or `/* @ts-expect-error *\/`) directive. The
 * directive fails type-checking when the next line has no type error, so in a test it is an
 * assertion about types. `@ts-ignore` never fails and is not one.
 */
export function findExpectErrorLines(source: string): number[] {
  const lines: number[] = [];
  if (!source.includes('@ts-expect-error')) return lines;
  let line = 0;
  let lineStart = 0;
  for (let hit = source.indexOf('@ts-expect-error'); hit !== -1; hit = source.indexOf('@ts-expect-error', hit + 1)) {
    for (let newline = source.indexOf('\n', lineStart); newline !== -1 && newline < hit; newline = source.indexOf('\n', lineStart)) {
      lineStart = newline + 1;
      line++;
    }
    if (lines[lines.length - 1] === line) continue;
    const newline = source.indexOf('\n', hit);
    if (expectErrorDirective.test(source.slice(lineStart, newline === -1 ? source.length : newline))) lines.push(line);
  }
  return lines;
}
