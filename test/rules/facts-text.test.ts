import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CommentSyntax, classifyTextChange } from '../../src/rules/facts-text.js';
import { canonicalRegexLiteral } from '../../src/rules/regex-canonical.js';

/**
 * The rule classifyTextChange implements, written the plain way: each text normalised whole, a character at a time
 * (whitespace collapses, kept only between identifier characters; strings verbatim, regexes in their canonical
 * spelling (regex-canonical.ts); comments collapsed in
 * one form and dropped from the other), then the forms compared. The implementation normalises both sides a piece at
 * a time and stops at the first difference; on every text the answer must be this one.
 */
function referenceClassify(base: string, head: string, syntax: CommentSyntax): { formattingOnly: boolean; commentOnly: boolean } {
  if (base === head) return { formattingOnly: false, commentOnly: false };
  if (syntax === 'none') {
    const strip = (text: string): string => text.replace(/\s+/g, ' ').trim();
    return { formattingOnly: strip(base) === strip(head), commentOnly: false };
  }
  const a = referenceNormalise(base, syntax);
  const b = referenceNormalise(head, syntax);
  if (a.with === b.with) return { formattingOnly: true, commentOnly: false };
  return { formattingOnly: false, commentOnly: a.without === b.without };
}

function referenceNormalise(text: string, syntax: 'c' | 'hash'): { with: string; without: string } {
  const ident = (char: string): boolean => /[\p{L}\p{N}_$]/u.test(char);
  const forms = { with: '', without: '' };
  const pending = { with: false, without: false };
  // The form without comments ends with its last part: a space is only ever put before a part.
  const put = (form: 'with' | 'without', part: string): void => {
    if (pending[form] && ident(forms[form].slice(-1)) && ident(part.charAt(0))) forms[form] += ' ';
    pending[form] = false;
    forms[form] += part;
  };
  const regexCanStart = (): boolean =>
    forms.without === '' ||
    '(,=:[!&|?{};+-*%<>~^'.includes(forms.without.slice(-1)) ||
    /(?:^|[^\p{L}\p{N}_$])(?:return|typeof|case|do|else|in|of|void|yield|await|throw|delete|new)$/u.test(forms.without);
  let index = 0;
  while (index < text.length) {
    const char = text.charAt(index);
    const next = text.charAt(index + 1);
    let end = index + 1;
    if (/\s/.test(char)) {
      pending.with = true;
      pending.without = true;
    } else if ((syntax === 'c' && char === '/' && (next === '/' || next === '*')) || (syntax === 'hash' && char === '#')) {
      const close = next === '*' && syntax === 'c' ? text.indexOf('*/', index + 2) : text.indexOf('\n', index);
      end = close === -1 ? text.length : next === '*' && syntax === 'c' ? close + 2 : close;
      put('with', text.slice(index, end).replace(/\s+/g, ' ').trim());
      pending.with = true;
      pending.without = true;
    } else if (char === '"' || char === "'" || (syntax === 'c' && char === '`')) {
      while (end < text.length && text[end] !== char && !(text[end] === '\n' && char !== '`')) end += text[end] === '\\' ? 2 : 1;
      end = Math.min(text.length, text[end] === char ? end + 1 : end);
      put('with', text.slice(index, end));
      put('without', text.slice(index, end));
    } else if (syntax === 'c' && char === '/' && regexCanStart()) {
      let inClass = false;
      while (end < text.length && text[end] !== '\n' && (inClass || text[end] !== '/')) {
        if (text[end] === '[') inClass = true;
        else if (text[end] === ']') inClass = false;
        end += text[end] === '\\' ? 2 : 1;
      }
      if (text[end] === '/') for (end += 1; end < text.length && /[a-z]/i.test(text.charAt(end)); end += 1);
      end = Math.min(end, text.length);
      put('with', canonicalRegexLiteral(text.slice(index, end)));
      put('without', canonicalRegexLiteral(text.slice(index, end)));
    } else {
      put('with', char);
      put('without', char);
    }
    index = end;
  }
  return forms;
}

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
function createRandom(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

const TOKENS = [
  'a',
  'b1',
  '$x',
  'é',
  'return',
  'typeof',
  'x.return',
  '(',
  ')',
  '=',
  ';',
  '{',
  '}',
  '+',
  '/',
  '*',
  '2',
  '.',
  '"s t"',
  "'q\\'r'",
  '`t ${a} \n u`',
  '/re g/i',
  '/[/]x/',
  '// note  here\n',
  '/* block\n  text */',
  '# hash  note\n',
  ' ',
  '  ',
  '\n',
  '\t',
  '\u00a0',
  '"unterminated\n',
  '/* open',
];

function randomText(random: (below: number) => number, length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += TOKENS[random(TOKENS.length)];
  return text;
}

/** Another version of `text`: a few of its whitespace runs, comments or characters changed, or none. */
function mutate(random: (below: number) => number, text: string): string {
  const kind = random(4);
  if (kind === 0) return text.replace(/\s+/g, (space) => (random(3) === 0 ? (random(2) === 0 ? ' ' : '\n  ') : space));
  if (kind === 1)
    return text.replace(/\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\//g, (comment) =>
      random(2) === 0 ? `${comment.slice(0, 2)} changed` : comment,
    );
  if (kind === 2) {
    const at = random(text.length + 1);
    return `${text.slice(0, at)}${TOKENS[random(TOKENS.length)]}${text.slice(at)}`;
  }
  const at = random(text.length);
  return `${text.slice(0, at)}${text.slice(at + 1)}`;
}

describe('classifyTextChange', () => {
  it('answers as the whole-text normalisation does, on random texts short and longer than a step', () => {
    const counts = { formattingOnly: 0, commentOnly: 0, neither: 0 };
    for (let seed = 1; seed <= 1500; seed += 1) {
      const random = createRandom(seed);
      // Every 50th pair is long enough (tens of thousands of characters) to be compared over several steps.
      const base = randomText(random, seed % 50 === 0 ? 6000 : 5 + random(60));
      const head = mutate(random, base);
      for (const syntax of ['c', 'hash', 'none'] as const) {
        const expected = referenceClassify(base, head, syntax);
        assert.deepEqual(classifyTextChange(base, head, syntax), expected, `seed ${seed}, syntax ${syntax}`);
        if (expected.formattingOnly) counts.formattingOnly += 1;
        else if (expected.commentOnly) counts.commentOnly += 1;
        else counts.neither += 1;
      }
    }
    // The mutations reach every answer, so the comparison above is not vacuous.
    for (const [answer, count] of Object.entries(counts)) assert.ok(count > 200, `${answer}: ${count}`);
  });

  it('a regex respelled with the same meaning is formatting; one that matches other strings is not (msw)', () => {
    const base = 'export const normalize = (input) => input.replace(/[\\\\|\\/]+/g, sep);\n';
    assert.deepEqual(classifyTextChange(base, base.replace('|\\/]', '|/]'), 'c'), { formattingOnly: true, commentOnly: false });
    assert.deepEqual(classifyTextChange(base, base.replace('+/g', '*/g'), 'c'), { formattingOnly: false, commentOnly: false });
    assert.deepEqual(classifyTextChange(base, base.replace('/g,', '/gi,'), 'c'), { formattingOnly: false, commentOnly: false });
  });

  it('finds a difference far into a long text, and a layout change spread over all of it', () => {
    const body = Array.from({ length: 4000 }, (_, index) => `export const value${index} = compute(${index}, "label ${index}");\n`).join('');
    const late = body.replace('compute(3999,', 'compute(4000,');
    assert.deepEqual(classifyTextChange(body, late, 'c'), { formattingOnly: false, commentOnly: false });
    const reindented = body.replace(/ = /g, '=\n    ').replace(/, /g, ',');
    assert.deepEqual(classifyTextChange(body, reindented, 'c'), { formattingOnly: true, commentOnly: false });
    const commented = body.replace(/\n/g, ' // why\n');
    assert.deepEqual(classifyTextChange(body, commented, 'c'), { formattingOnly: false, commentOnly: true });
    // One side ends while the other still has code: the longer side is what differs.
    assert.deepEqual(classifyTextChange(body, `${body}x`, 'c'), { formattingOnly: false, commentOnly: false });
    assert.deepEqual(classifyTextChange(`${body}x`, body, 'c'), { formattingOnly: false, commentOnly: false });
  });

  it('reads a slash after a keyword as a regex, so its spaces are kept', () => {
    assert.deepEqual(classifyTextChange('return /a  b/;\n', 'return /a b/;\n', 'c'), { formattingOnly: false, commentOnly: false });
    assert.deepEqual(classifyTextChange('x = total / 2 / 3;\n', 'x = total/2/3;\n', 'c'), { formattingOnly: true, commentOnly: false });
  });
});
