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

/** A class element as a reviewer reads it: a character quoted, a range or a set by what it stands for. */
function describeClassElement(element: AST.CharacterClassElement): string {
  // Quoted, not in backticks: the Markdown bundle escapes a backtick inside a task's text.
  if (element.type === 'Character') return element.raw === ' ' ? 'a space' : element.raw === "'" ? `"'"` : `'${element.raw}'`;
  if (element.type === 'CharacterClassRange') return `a character in ${element.raw}`;
  return `a character of ${element.raw}`;
}

function parseLiteral(literal: string): AST.Pattern | undefined {
  const match = /^\/(.+)\/([a-z]*)$/s.exec(literal);
  if (match === null) return undefined;
  const [, source = '', flags = ''] = match;
  try {
    return new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, {
      unicode: flags.includes('u'),
      unicodeSets: flags.includes('v'),
    });
  } catch {
    return undefined;
  }
}

/** The pattern with each character class written as a hole, and its classes in order. */
function splitClasses(pattern: AST.Pattern): { shape: string; classes: AST.CharacterClass[] } {
  const classes: AST.CharacterClass[] = [];
  const visit = (node: Node): string => {
    switch (node.type) {
      case 'Pattern':
        return node.alternatives.map(visit).join('|');
      case 'Alternative':
        return node.elements.map(visit).join('');
      case 'CharacterClass':
        classes.push(node);
        return `[#${classes.length}]`;
      case 'Quantifier':
        return `(?:${visit(node.element)}){${node.min},${node.max === Number.POSITIVE_INFINITY ? '' : node.max}}${node.greedy ? '' : '?'}`;
      case 'Group':
        return `(?:${node.alternatives.map(visit).join('|')})`;
      case 'CapturingGroup':
        return `(${node.name === null ? '' : `?<${node.name}>`}${node.alternatives.map(visit).join('|')})`;
      case 'Assertion':
        if (node.kind === 'lookahead' || node.kind === 'lookbehind')
          return `(?${node.kind === 'lookbehind' ? '<' : ''}${node.negate ? '!' : '='}${node.alternatives.map(visit).join('|')})`;
        return node.raw;
      default:
        return write(node);
    }
  };
  return { shape: visit(pattern), classes };
}

/**
 * The strings that tell two patterns apart when they differ only inside character classes (validator.js's
 * `[J,G,V,E]` made `[JGVE]`: a string with ',' there, which the old pattern accepted and the new one refuses);
 * undefined for any other change (a class given or stripped of `^`, anything outside the classes, the flags).
 */
export function describeClassChange(base: string, head: string): string | undefined {
  const [was, now] = [parseLiteral(base), parseLiteral(head)];
  if (was === undefined || now === undefined || /\/([a-z]*)$/.exec(base)?.[1] !== /\/([a-z]*)$/.exec(head)?.[1]) return undefined;
  const [old, current] = [splitClasses(was), splitClasses(now)];
  if (old.shape !== current.shape || old.classes.length !== current.classes.length) return undefined;
  const pieces = new Set<string>();
  for (const [index, before] of old.classes.entries()) {
    const after = current.classes[index];
    if (after === undefined || before.negate !== after.negate) return undefined;
    const keys = (node: AST.CharacterClass): Map<string, AST.CharacterClassElement> =>
      new Map(node.elements.map((element) => [write(element as Node), element as AST.CharacterClassElement]));
    const [wasKeys, nowKeys] = [keys(before), keys(after)];
    const dropped = [...wasKeys].filter(([key]) => !nowKeys.has(key)).map(([, element]) => describeClassElement(element));
    const gained = [...nowKeys].filter(([key]) => !wasKeys.has(key)).map(([, element]) => describeClassElement(element));
    // Out of a negated class, a dropped character is one the pattern now accepts.
    const [refused, accepted] = before.negate ? [gained, dropped] : [dropped, gained];
    if (refused.length > 0)
      pieces.add(`a string with ${refused.join(' or ')} where ${before.raw} stands (the old pattern accepts it, the new one refuses it)`);
    if (accepted.length > 0)
      pieces.add(`a string with ${accepted.join(' or ')} where ${after.raw} stands (the new pattern accepts it, the old one refused it)`);
  }
  return pieces.size === 0 ? undefined : `${[...pieces].join('; ')}, and a string both accept`;
}
