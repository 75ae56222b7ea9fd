import type { FileWords } from '../../../model/facts.js';
import { count, countWords, encode, encodeNames, MAX_NAME_LENGTH, NAME_LIKE, toCompactName, toWordBag } from '../file-words.js';
import { getCallParts, getDottedName, getParts, getText, type PyFile, type PyNode } from './python-tree.js';

/** Keywords that tree-sitter reads as identifiers, implicit parameters and built-in type names: words of the language. */
const KEYWORDS: ReadonlySet<string> = new Set(
  (
    'and as assert async await break class continue def del elif else except exec finally for from global if import in is ' +
    'lambda match case nonlocal not or pass print raise return try type while with yield None True False self cls ' +
    'str int float bool bytes dict list tuple set object'
  ).split(' '),
);
/** Calls whose string argument names a module, not something the code says. */
const specifierCalls = new Set(['importlib.import_module', 'import_module', '__import__', 'include']);

/**
 * The words of a Python file by where they stand (model FileWords), from its tree: names it declares (`def`, `class`,
 * assignment targets), other identifiers and attribute names, string literals (docstrings count as comments, module
 * names in `import_module('x')` and Django `include('x')` not at all), comments.
 */
export function collectWords(file: PyFile): FileWords {
  const declarations = new Map<string, number>();
  const identifiers = new Map<string, number>();
  const strings = new Map<string, number>();
  const comments = new Map<string, number>();
  const names = new Set<string>();
  const addIdentifier = (bag: Map<string, number>, node: PyNode): void => {
    const text = getText(file, node);
    if (!KEYWORDS.has(text)) count(bag, text);
  };
  const addTargets = (node: PyNode): void => {
    if (node.type === 'identifier') addIdentifier(declarations, node);
    else if (node.type === 'pattern_list' || node.type === 'tuple_pattern' || node.type === 'list_pattern')
      for (const part of node.children) addTargets(part);
    else walk(node);
  };
  const addString = (node: PyNode, bag: Map<string, number>): void => {
    for (const child of node.children) {
      if (child.type === 'string_content') {
        const content = getText(file, child);
        countWords(bag, content);
        if (bag === strings && content.length <= MAX_NAME_LENGTH && NAME_LIKE.test(content)) {
          const compact = toCompactName(content);
          if (compact !== undefined) names.add(compact);
        }
      } else if (child.type === 'interpolation') walk(child);
    }
  };
  const walk = (node: PyNode): void => {
    switch (node.type) {
      case 'identifier':
        addIdentifier(identifiers, node);
        return;
      case 'comment':
        countWords(comments, getText(file, node).replace(/^#+/, ''));
        return;
      case 'string':
        addString(node, strings);
        return;
      case 'expression_statement': {
        const parts = getParts(node);
        const only = parts.length === 1 ? parts[0] : undefined;
        if (only?.type === 'string' || only?.type === 'concatenated_string') {
          for (const part of only.type === 'string' ? [only] : only.children) if (part.type === 'string') addString(part, comments);
          return;
        }
        break;
      }
      case 'function_definition':
      case 'class_definition': {
        const [name, ...rest] = node.children;
        if (name?.type === 'identifier') {
          addIdentifier(declarations, name);
          for (const child of rest) walk(child);
          return;
        }
        break;
      }
      case 'assignment': {
        const [left, ...rest] = node.children;
        if (left !== undefined) {
          addTargets(left);
          for (const child of rest) walk(child);
          return;
        }
        break;
      }
      case 'call': {
        const { callee } = getCallParts(node);
        const name = getDottedName(file, callee);
        if (name !== undefined && specifierCalls.has(name)) {
          for (const child of node.children) walkSkippingStrings(child);
          return;
        }
        break;
      }
    }
    for (const child of node.children) walk(child);
  };
  const walkSkippingStrings = (node: PyNode): void => {
    if (node.type === 'string') return;
    if (node.type === 'argument_list') for (const child of node.children) walkSkippingStrings(child);
    else walk(node);
  };
  walk(file.root);
  return {
    declared: encode(toWordBag(declarations, names)),
    code: encode(toWordBag(identifiers, names)),
    strings: encode(strings),
    comments: encode(comments),
    names: encodeNames(names),
  };
}
