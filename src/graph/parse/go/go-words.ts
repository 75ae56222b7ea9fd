import type { FileWords } from '../../../model/facts.js';
import { count, countWords, encode, encodeNames, MAX_NAME_LENGTH, NAME_LIKE, toCompactName, toWordBag } from '../file-words.js';
import { PREDECLARED } from './go-references.js';
import { type GoNode, toStringValue } from './go-tree.js';

/** Go's keywords, its predeclared names, and `err`: words of the language, not of the code. */
const GO_WORDS: ReadonlySet<string> = new Set([
  ...PREDECLARED,
  ...(
    'break case chan const continue default defer else fallthrough for func go goto if import interface map package range ' +
    'return select struct switch type var err'
  ).split(' '),
]);
const IDENTIFIERS: ReadonlySet<string> = new Set(['identifier', 'field_identifier', 'type_identifier', 'package_identifier', 'label_name']);
/** Declarations whose `name` field is a name the file declares. */
const DECLARING: ReadonlySet<string> = new Set([
  'function_declaration',
  'method_declaration',
  'type_spec',
  'type_alias',
  'const_spec',
  'var_spec',
]);

/** The words of a Go file by where they stand (model FileWords); import paths left out. */
export function collectGoWords(root: GoNode, source: string): FileWords {
  const identifiers = new Map<string, number>();
  const declarations = new Map<string, number>();
  const strings = new Map<string, number>();
  const comments = new Map<string, number>();
  const names = new Set<string>();
  const stack: { node: GoNode; isDeclared: boolean }[] = [{ node: root, isDeclared: false }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, isDeclared } = item;
    if (IDENTIFIERS.has(node.type)) {
      const name = source.slice(node.start, node.end);
      if (!GO_WORDS.has(name)) count(isDeclared ? declarations : identifiers, name);
      continue;
    }
    switch (node.type) {
      case 'import_spec':
        for (const child of node.children) if (child.field === 'name') stack.push({ node: child, isDeclared: false });
        continue;
      case 'comment': {
        const text = source.slice(node.start, node.end);
        countWords(comments, text.startsWith('/*') ? text.slice(2, -2) : text.slice(2));
        continue;
      }
      case 'interpreted_string_literal':
      case 'raw_string_literal': {
        const content = toStringValue(node, source) ?? '';
        countWords(strings, content);
        if (content.length <= MAX_NAME_LENGTH && NAME_LIKE.test(content)) {
          const compact = toCompactName(content);
          if (compact !== undefined) names.add(compact);
        }
        continue;
      }
    }
    const declares = DECLARING.has(node.type);
    const isShortDeclaration = node.type === 'short_var_declaration';
    for (const child of node.children) {
      const declared = (declares && child.field === 'name') || (isShortDeclaration && child.field === 'left');
      if (isShortDeclaration && declared) {
        for (const target of child.children) stack.push({ node: target, isDeclared: target.type === 'identifier' });
      } else stack.push({ node: child, isDeclared: declared });
    }
  }
  return {
    declared: encode(toWordBag(declarations, names)),
    code: encode(toWordBag(identifiers, names)),
    strings: encode(strings),
    comments: encode(comments),
    names: encodeNames(names),
  };
}
