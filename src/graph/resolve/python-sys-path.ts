import { getDirName, joinRepoPath } from './paths.js';

/** `sys.path.insert(<index>, <expression>)` or `sys.path.append(<expression>)`, the expression up to the call's end. */
const SYS_PATH_CALL = /\bsys\.path\.(?:insert\s*\(\s*-?\d+\s*,|append\s*\()/g;

/** A path as far as the expression can be followed: a repository folder, or undefined when it is not static. */
type PathValue = { kind: 'path'; path: string } | { kind: 'file' };

/**
 * The folders a conftest.py (or any module pytest loads first) puts on `sys.path` where the expression is static:
 * `sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'src'))`,
 * `sys.path.append(str(Path(__file__).resolve().parent.parent / 'src'))`, `sys.path.insert(0, 'src')` (a literal
 * relative path is taken from the repository root, where pytest is run). Anything computed otherwise (an environment
 * variable, a loop) is left out: a root checker cannot know is not guessed. Folders outside the repository are
 * dropped.
 */
export function findSysPathRoots(path: string, text: string): string[] {
  const roots: string[] = [];
  for (const match of text.matchAll(SYS_PATH_CALL)) {
    const start = (match.index ?? 0) + match[0].length;
    const argument = takeArgument(text, start);
    if (argument === undefined) continue;
    const value = evaluate(argument.trim(), path);
    if (value?.kind === 'path' && !roots.includes(value.path)) roots.push(value.path);
  }
  return roots;
}

/**
 * Walks `text` from `start` (at most `limit` characters), calling `visit` with each character outside strings, its
 * offset and the bracket depth it stands at (a closing bracket at the depth it closes to, so a `)` that closes nothing is at -1);
 * stops when `visit` returns true and gives that offset.
 */
function scanTopLevel(
  text: string,
  visit: (char: string, depth: number, index: number) => boolean,
  start = 0,
  limit = text.length,
): number | undefined {
  let depth = 0;
  let quote = '';
  for (let index = start; index < text.length && index < start + limit; index++) {
    const char = text.charAt(index);
    if (quote !== '') {
      if (char === '\\') index++;
      else if (char === quote) quote = '';
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    if (visit(char, depth, index)) return index;
  }
  return undefined;
}

/** The text of the call's argument: up to the `)` that closes the call, brackets and strings balanced. */
function takeArgument(text: string, start: number): string | undefined {
  const end = scanTopLevel(text, (char, depth) => depth < 0 && (char === ')' || char === ']'), start, 400);
  return end === undefined ? undefined : text.slice(start, end);
}

/** Splits `a, b, c` at the top level (not inside brackets or strings). */
function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  scanTopLevel(text, (char, depth, index) => {
    if (char === ',' && depth === 0) {
      parts.push(text.slice(from, index).trim());
      from = index + 1;
    }
    return false;
  });
  const last = text.slice(from).trim();
  if (last !== '') parts.push(last);
  return parts;
}

const STRING = /^[rRuU]?(["'])((?:(?!\1)[^\\]|\\.)*)\1$/;
const CALL = /^([\w.]+)\s*\(([\s\S]*)\)$/;

function parent(value: PathValue | undefined, file: string): PathValue | undefined {
  if (value === undefined) return undefined;
  if (value.kind === 'file') return { kind: 'path', path: getDirName(file) };
  if (value.path === '') return undefined;
  return { kind: 'path', path: getDirName(value.path) };
}

function join(base: PathValue | undefined, part: string, file: string): PathValue | undefined {
  if (base === undefined) return undefined;
  const from = base.kind === 'file' ? file : base.path;
  const joined = joinRepoPath(from, part);
  return joined === undefined ? undefined : { kind: 'path', path: joined };
}

/** The value of a path expression, or undefined when it is not one checker can follow statically. */
function evaluate(expression: string, file: string): PathValue | undefined {
  const text = expression.trim();
  if (text === '__file__') return { kind: 'file' };
  const string = STRING.exec(text);
  if (string !== null) {
    const literal = string[2] ?? '';
    if (literal.startsWith('/') || /^[A-Za-z]:/.test(literal)) return undefined;
    const path = joinRepoPath('', literal);
    return path === undefined ? undefined : { kind: 'path', path };
  }
  // `x / 'src'` (pathlib), the rightmost `/` at the top level.
  const slash = findTopLevelSlash(text);
  if (slash !== undefined) {
    const right = STRING.exec(text.slice(slash + 1).trim());
    return right === null ? undefined : join(evaluate(text.slice(0, slash), file), right[2] ?? '', file);
  }
  // `x.parent`, `x.parents[1]`, `x.resolve()`, `x.absolute()`.
  const member = /^([\s\S]+)\.(parent|parents\[(\d+)\]|resolve\(\)|absolute\(\))$/.exec(text);
  if (member !== null) {
    const base = evaluate(member[1] ?? '', file);
    if (member[2] === 'resolve()' || member[2] === 'absolute()') return base;
    if (member[2] === 'parent') return parent(base, file);
    let value = parent(base, file);
    for (let step = 0; step < Number(member[3]); step++) value = parent(value, file);
    return value;
  }
  const call = CALL.exec(text);
  if (call === null) return undefined;
  const [, callee = '', inner = ''] = call;
  const args = splitArguments(inner);
  switch (callee) {
    case 'str':
    case 'Path':
    case 'pathlib.Path':
    case 'os.path.abspath':
    case 'os.path.realpath':
    case 'os.path.normpath':
    case 'os.fspath':
      return args.length === 1 ? evaluate(args[0] ?? '', file) : undefined;
    case 'os.path.dirname':
      return args.length === 1 ? parent(evaluate(args[0] ?? '', file), file) : undefined;
    case 'os.path.join': {
      let value = evaluate(args[0] ?? '', file);
      for (const part of args.slice(1)) {
        const literal = STRING.exec(part);
        value = literal === null ? undefined : join(value, literal[2] ?? '', file);
      }
      return value;
    }
    default:
      return undefined;
  }
}

/** The offset of the last `/` outside brackets and strings, or undefined. */
function findTopLevelSlash(text: string): number | undefined {
  let found: number | undefined;
  scanTopLevel(text, (char, depth, index) => {
    if (char === '/' && depth === 0) found = index;
    return false;
  });
  return found;
}
