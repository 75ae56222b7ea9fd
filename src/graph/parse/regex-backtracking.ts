import { type AST, RegExpParser } from '@eslint-community/regexpp';

/*
 * Whether a regular expression can backtrack catastrophically (exponentially) on a crafted near-match, from its syntax
 * tree (regexpp), not from its text: an unbounded repetition whose body can match the same string in more than one
 * way. Two shapes give that ambiguity:
 *  - a nested quantifier: an unbounded repetition inside another, where nothing mandatory in the outer body tells
 *    one outer iteration from the next (`(a+)+`, `(\w+\s?)*`; not `(\d+\.)+`, whose `.` must end each iteration);
 *  - overlapping alternatives under an unbounded repetition: two branches that can start with the same character
 *    (`(a|ab)*`, `(\w|\d)+`; not `(GET|HEAD)+`).
 * Characters are compared over ASCII, plus one bit that stands for every other code point: an approximation that
 * errs towards overlap only for classes it cannot read (set operations, Unicode properties).
 */

/** A set of characters: bit c for ASCII code c, bit 128 for anything beyond ASCII. */
type CharSet = bigint;

const NON_ASCII = 1n << 128n;
const EVERYTHING: CharSet = (1n << 129n) - 1n;
const NOTHING: CharSet = 0n;

function rangeSet(from: number, to: number): CharSet {
  let set = NOTHING;
  for (let code = from; code <= Math.min(to, 127); code++) set |= 1n << BigInt(code);
  if (to > 127) set |= NON_ASCII;
  return set;
}

const DIGITS = rangeSet(48, 57);
const WORD = rangeSet(48, 57) | rangeSet(65, 90) | rangeSet(97, 122) | rangeSet(95, 95);
const SPACE = rangeSet(9, 13) | rangeSet(32, 32) | NON_ASCII;
const NEWLINES = rangeSet(10, 10) | rangeSet(13, 13);

interface Flags {
  ignoreCase: boolean;
  dotAll: boolean;
}

/** What an element can match first, and whether it can match the empty string. */
interface Start {
  first: CharSet;
  nullable: boolean;
}

function withCase(set: CharSet, flags: Flags): CharSet {
  if (!flags.ignoreCase) return set;
  const upper = (set >> 97n) & ((1n << 26n) - 1n);
  const lower = (set >> 65n) & ((1n << 26n) - 1n);
  return set | (upper << 65n) | (lower << 97n);
}

function characterSet(node: AST.Node, flags: Flags): CharSet {
  switch (node.type) {
    case 'Character':
      return withCase(node.value > 127 ? NON_ASCII : 1n << BigInt(node.value), flags);
    case 'CharacterClassRange':
      return withCase(rangeSet(node.min.value, node.max.value), flags);
    case 'CharacterSet': {
      if (node.kind === 'any') return flags.dotAll ? EVERYTHING : EVERYTHING & ~NEWLINES;
      const base = node.kind === 'digit' ? DIGITS : node.kind === 'word' ? WORD : node.kind === 'space' ? SPACE : EVERYTHING;
      return 'negate' in node && node.negate && node.kind !== 'property' ? EVERYTHING & ~base : base;
    }
    case 'CharacterClass': {
      if (node.unicodeSets) return EVERYTHING;
      let set = NOTHING;
      for (const element of node.elements) set |= characterSet(element, flags);
      return node.negate ? EVERYTHING & ~set : set;
    }
    default:
      return EVERYTHING;
  }
}

function startOf(node: AST.Node, flags: Flags): Start {
  switch (node.type) {
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
    case 'ExpressionCharacterClass':
      return { first: characterSet(node, flags), nullable: false };
    case 'Group':
    case 'CapturingGroup':
      return alternativesStart(node.alternatives, flags);
    case 'Quantifier': {
      const inner = startOf(node.element, flags);
      return { first: inner.first, nullable: node.min === 0 || inner.nullable };
    }
    case 'Alternative':
      return sequenceStart(node.elements, flags);
    case 'Backreference':
      return { first: EVERYTHING, nullable: true };
    default:
      // Assertions (^, $, \b, lookarounds) match no character.
      return { first: NOTHING, nullable: true };
  }
}

function sequenceStart(elements: readonly AST.Element[], flags: Flags): Start {
  let first = NOTHING;
  for (const element of elements) {
    const start = startOf(element, flags);
    first |= start.first;
    if (!start.nullable) return { first, nullable: false };
  }
  return { first, nullable: true };
}

function alternativesStart(alternatives: readonly AST.Alternative[], flags: Flags): Start {
  let first = NOTHING;
  let nullable = false;
  for (const alternative of alternatives) {
    const start = startOf(alternative, flags);
    first |= start.first;
    nullable ||= start.nullable;
  }
  return { first, nullable };
}

/** Unbounded quantifiers inside `node` (not inside lookarounds, which do not consume), with the path down to each. */
function findInnerRepetitions(node: AST.Node, path: AST.Node[], found: { quantifier: AST.Quantifier; path: AST.Node[] }[]): void {
  const visit = (child: AST.Node): void => findInnerRepetitions(child, [...path, child], found);
  switch (node.type) {
    case 'Quantifier':
      if (path.length > 1 && node.max === Number.POSITIVE_INFINITY) found.push({ quantifier: node, path });
      visit(node.element);
      return;
    case 'Group':
    case 'CapturingGroup':
      for (const alternative of node.alternatives) visit(alternative);
      return;
    case 'Alternative':
      for (const element of node.elements) visit(element);
      return;
    default:
      return;
  }
}

/**
 * Whether an outer iteration can end inside the inner repetition and the next begin inside it again: every element
 * beside the inner repetition, on the way up to the outer body, either can match nothing or can start with what the
 * inner repetition matches.
 */
function isAmbiguousNesting(path: readonly AST.Node[], inner: AST.Quantifier, flags: Flags): boolean {
  const innerStart = startOf(inner.element, flags);
  if (innerStart.nullable) return true;
  for (let index = path.length - 1; index > 0; index--) {
    const parent = path[index - 1];
    const child = path[index];
    if (parent?.type !== 'Alternative') continue;
    for (const sibling of parent.elements) {
      if (sibling === child) continue;
      const start = startOf(sibling, flags);
      if (!start.nullable && (start.first & innerStart.first) === NOTHING) return false;
    }
  }
  return true;
}

function overlappingAlternatives(node: AST.Node, flags: Flags): boolean {
  if (node.type !== 'Group' && node.type !== 'CapturingGroup') return false;
  const starts = node.alternatives.map((alternative) => startOf(alternative, flags).first);
  for (let left = 0; left < starts.length; left++) {
    for (let right = left + 1; right < starts.length; right++) {
      if (((starts[left] ?? NOTHING) & (starts[right] ?? NOTHING)) !== NOTHING) return true;
    }
  }
  return false;
}

function describe(source: string, node: AST.Node): string {
  return source.slice(node.start, node.end);
}

/** Matches whatever follows, so it can never fail: it can match nothing and holds no assertion (`\s*`, `(x)?`). */
function alwaysMatches(node: AST.Node, flags: Flags): boolean {
  if (!startOf(node, flags).nullable) return false;
  let assertion = false;
  const visit = (child: AST.Node): void => {
    if (child.type === 'Assertion' || child.type === 'Backreference') assertion = true;
    else if (child.type === 'Group' || child.type === 'CapturingGroup') child.alternatives.forEach(visit);
    else if (child.type === 'Alternative') child.elements.forEach(visit);
    else if (child.type === 'Quantifier') visit(child.element);
  };
  visit(node);
  return !assertion;
}

/**
 * `tail`: nothing after `node` can fail, up to the end of the pattern. An ambiguous repetition there cannot backtrack:
 * once it has matched, the match is over (`/(?:[^\s"']+|"[^"]*")+/g` on a near-match), so only one that something
 * after it can make fail is a case (`(a+)+$`, `(a+)+b`).
 */
function findIn(node: AST.Node, source: string, flags: Flags, tail = false): string | undefined {
  if (node.type === 'Quantifier' && node.max === Number.POSITIVE_INFINITY && !tail) {
    const inner: { quantifier: AST.Quantifier; path: AST.Node[] }[] = [];
    findInnerRepetitions(node, [node], inner);
    for (const { quantifier, path } of inner) {
      if (isAmbiguousNesting(path, quantifier, flags)) {
        return `nested repetition ${describe(source, node)}`;
      }
    }
    if (overlappingAlternatives(node.element, flags)) {
      return `overlapping alternatives ${describe(source, node)}`;
    }
  }
  if (node.type === 'Alternative') {
    // An element is in tail position when its alternative is and every element after it always matches.
    let restAlwaysMatches = true;
    const tails = node.elements
      .map((_element, index) => index)
      .reverse()
      .map((index) => {
        const isTail = tail && restAlwaysMatches;
        restAlwaysMatches &&= alwaysMatches(node.elements[index] as AST.Element, flags);
        return isTail;
      })
      .reverse();
    for (const [index, element] of node.elements.entries()) {
      const found = findIn(element, source, flags, tails[index]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  // A lookaround's body is followed by what the lookaround decides: never in tail position.
  const [children, childTail]: [readonly AST.Node[], boolean] =
    node.type === 'Pattern'
      ? [node.alternatives, true]
      : node.type === 'Group' || node.type === 'CapturingGroup'
        ? [node.alternatives, tail]
        : node.type === 'Assertion' && (node.kind === 'lookahead' || node.kind === 'lookbehind')
          ? [node.alternatives, false]
          : node.type === 'Quantifier'
            ? [[node.element], tail]
            : [[], false];
  for (const child of children) {
    const found = findIn(child, source, flags, childTail);
    if (found !== undefined) return found;
  }
  return undefined;
}

const parser = new RegExpParser({ ecmaVersion: 2025 });

/**
 * Why `pattern` (with `flags`) can backtrack catastrophically, naming the part that does (`nested repetition (a+)+`,
 * `overlapping alternatives (a|ab)*`); undefined when it cannot, or
 * when it is no valid pattern (then it throws where it is built, which is another matter).
 */
export function findCatastrophicBacktracking(pattern: string, flags = ''): string | undefined {
  let tree: AST.Pattern;
  try {
    tree = parser.parsePattern(pattern, 0, pattern.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
  } catch {
    return undefined;
  }
  return findIn(tree, pattern, { ignoreCase: flags.includes('i'), dotAll: flags.includes('s') });
}
