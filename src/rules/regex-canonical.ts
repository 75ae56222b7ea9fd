import { type AST, RegExpParser } from '@eslint-community/regexpp';

/**
 * A regular expression literal written so that two spellings of one pattern read the same: every character by its
 * code point, so an escape that changes nothing (`[\\|\/]` and `[\\|/]`, `\-` outside a class) is gone, and the
 * flags sorted. Two literals with the same canonical text match the same strings the same way; a literal regexpp
 * cannot parse is returned as written.
 */
export function canonicalRegexLiteral(literal: string): string {
  const match = /^\/(.+)\/([a-z]*)$/s.exec(literal);
  if (match === null) return literal;
  const [, source = '', flags = ''] = match;
  try {
    const parser = new RegExpParser({ ecmaVersion: 2025 });
    const pattern = parser.parsePattern(source, 0, source.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
    return `/${write(pattern)}/${[...flags].sort().join('')}`;
  } catch {
    return literal;
  }
}

type Node = AST.Pattern | AST.Alternative | AST.Element | AST.CharacterClassElement | AST.StringAlternative | AST.ClassStringDisjunction;

function writeAll(nodes: readonly Node[], separator = ''): string {
  return nodes.map(write).join(separator);
}

function write(node: Node): string {
  switch (node.type) {
    case 'Pattern':
      return writeAll(node.alternatives, '|');
    case 'Alternative':
    case 'StringAlternative':
      return writeAll(node.elements);
    case 'Character':
      return `\\u{${node.value.toString(16)}}`;
    case 'CharacterClass':
      return `[${node.negate ? '^' : ''}${writeAll(node.elements as readonly Node[])}]`;
    case 'CharacterClassRange':
      return `${write(node.min)}-${write(node.max)}`;
    case 'Quantifier':
      return `(?:${write(node.element)}){${node.min},${node.max === Number.POSITIVE_INFINITY ? '' : node.max}}${node.greedy ? '' : '?'}`;
    case 'Group':
      return `(?:${writeAll(node.alternatives, '|')})`;
    case 'CapturingGroup':
      return `(${node.name === null ? '' : `?<${node.name}>`}${writeAll(node.alternatives, '|')})`;
    case 'Assertion':
      if (node.kind === 'lookahead' || node.kind === 'lookbehind')
        return `(?${node.kind === 'lookbehind' ? '<' : ''}${node.negate ? '!' : '='}${writeAll(node.alternatives, '|')})`;
      return node.raw;
    default:
      return node.raw;
  }
}
