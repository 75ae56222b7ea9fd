import { COMMAND_SECRET_FLAGS } from './command-flags.js';
import { redactArgv, redactAssignedValue, redactSecrets } from './redact.js';

/**
 * Redaction of structured output: a report, a session or a task-context packet on its way out (stdout JSON, MCP
 * structuredContent, a file under `.checker/local/`). Each string is redacted in the context the structure gives it:
 * a property's value as assigned to its key (`{"password": "hunter2"}` hides `hunter2`, `{"sortKey": "createdAt"}`
 * keeps it), an argv list element by element with the flag before it, a command string as the words it is made of;
 * keys themselves are redacted as text. The input is never changed; parts with nothing to redact are shared.
 */
export function redactTree<T>(value: T): T {
  return visit(value, undefined, { plain: new Map(), byKey: new Map() }) as T;
}

/**
 * Reports repeat names (`auth`, an export, a test title) many times: each distinct string is redacted once per tree,
 * and a value under a key that may name a secret once per key (a history's `authorEmail`, `auth` in its name, repeats
 * a few authors over thousands of commits).
 */
interface Seen {
  plain: Map<string, string>;
  byKey: Map<string, Map<string, string>>;
}

/** Keys whose string arrays are command lines (`checks.test.argv`) and whose strings are whole commands. */
const ARGV_KEY = /^(?:argv|args|arguments)$/i;
const COMMAND_KEY = /^(?:command|cmd|commandLine)$/i;

/**
 * Only a key that reads as a property name gives its value a context (`apiKey`, `db.password`, `X-Auth-Token`). A map
 * keyed by paths or ids (`{"src/auth/login.ts": "<sha>"}`) says nothing about its values.
 */
const NAME_KEY = /^[A-Za-z_$][\w$.-]{0,63}$/;
const FILE_NAME = /\.(?:[cm]?[jt]sx?|json5?|ya?ml|toml|md|mdx|txt|lock|html?|css|scss|vue|svelte|graphql|sql|env)$/i;

/**
 * Whether a property name gives its string value a context (NAME_KEY, not a file name), per name: reports and facts
 * repeat a few dozen names (`name`, `line`, `path`) over thousands of objects. Bounded: a document with more distinct
 * names asks the rest each time.
 */
const keyContexts = new Map<string, boolean>();
const MAX_KEY_CONTEXTS = 4096;

function givesContext(name: string): boolean {
  let gives = keyContexts.get(name);
  if (gives === undefined) {
    gives = NAME_KEY.test(name) && !FILE_NAME.test(name);
    if (keyContexts.size < MAX_KEY_CONTEXTS) keyContexts.set(name, gives);
  }
  return gives;
}

/** Copy on write: a subtree with nothing to redact is returned as is, so a clean report costs a walk, not a copy. */
function visit(value: unknown, key: string | undefined, seen: Seen): unknown {
  if (typeof value === 'string') return redactString(value, key, seen);
  if (Array.isArray(value)) {
    if (key !== undefined && ARGV_KEY.test(key) && value.every((item) => typeof item === 'string')) {
      const redacted = redactArgv(value);
      return redacted.every((item, index) => item === value[index]) ? value : redacted;
    }
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const redacted = typeof item === 'object' || typeof item === 'string' ? visit(item, undefined, seen) : item;
      if (redacted !== item && copy === undefined) copy = value.slice(0, index);
      copy?.push(redacted);
    }
    return copy ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    let copy: Record<string, unknown> | undefined;
    let index = 0;
    for (const name of Object.keys(value)) {
      const item: unknown = (value as Record<string, unknown>)[name];
      const safeName = name.length < MIN_REDACTABLE_LENGTH ? name : redactString(name, undefined, seen);
      // Only a string or an array (argv) is read in the context of its key; numbers, booleans and null are kept.
      const redacted =
        typeof item === 'string' || Array.isArray(item)
          ? visit(item, givesContext(name) ? name : undefined, seen)
          : typeof item === 'object' && item !== null
            ? visit(item, undefined, seen)
            : item;
      if ((redacted !== item || safeName !== name) && copy === undefined) {
        copy = {};
        for (const earlier of Object.keys(value).slice(0, index)) copy[earlier] = (value as Record<string, unknown>)[earlier];
      }
      if (copy !== undefined) copy[safeName] = redacted;
      index += 1;
    }
    return copy ?? value;
  }
  return value;
}

/** Commands whose flags carry passwords (`mysql -pX`, `curl -u a:X`): a string naming one may hold a secret. */
const SECRET_COMMANDS = new Set(COMMAND_SECRET_FLAGS.flatMap((convention) => convention.commands));

/**
 * A superset of what redactSecrets can match: its keywords, token prefixes, key headers, URL credentials and
 * commands with password flags. Most strings in a report are paths and identifiers that contain none of these, and
 * one test is far cheaper than the full redactor. Kept in step with redact.ts by test/text/redact-tree.test.ts, which
 * asserts that every corpus text the redactor changes passes this filter.
 */
const MIGHT_HOLD_SECRET =
  /pass|pwd|secret|token|cred|auth|key|bearer|identified|-----|:\/\/[^\s/@]*[:@]|AKIA|ASIA|ABIA|ACCA|A3T|gh[pousr]_|github_pat_|gl(?:pat|ptt|dt|rt|cbt|soat)-|xox|npm_|[sr]k_|sk-|AIza|eyJ|LS0tLS1|slack/i;

export function mightHoldSecret(text: string): boolean {
  if (MIGHT_HOLD_SECRET.test(text)) return true;
  if (!text.includes(' -')) return false;
  return text.split(/[\s;|&()]+/).some((word) => SECRET_COMMANDS.has(word.slice(word.lastIndexOf('/') + 1)));
}

/** The shortest text redactSecrets changes is a keyword, an operator and a 4-character value (`pwd=abcd`). */
const MIN_REDACTABLE_LENGTH = 8;

/** `redactSecrets(text).text`, without running the redactor over text that cannot hold what it matches. */
export function redactText(text: string): string {
  return text.length < MIN_REDACTABLE_LENGTH || !mightHoldSecret(text) ? text : redactSecrets(text).text;
}

function redactString(value: string, key: string | undefined, seen: Seen): string {
  if (key === undefined) {
    if (value.length < MIN_REDACTABLE_LENGTH || !mightHoldSecret(value)) return value;
    let redacted = seen.plain.get(value);
    if (redacted === undefined) {
      redacted = redactSecrets(value).text;
      seen.plain.set(value, redacted);
    }
    return redacted;
  }
  if (COMMAND_KEY.test(key)) return redactCommandLine(value);
  if (!MIGHT_HOLD_SECRET.test(key) && !mightHoldSecret(value)) return value;
  let values = seen.byKey.get(key);
  if (values === undefined) {
    values = new Map();
    seen.byKey.set(key, values);
  }
  let redacted = values.get(value);
  if (redacted === undefined) {
    redacted = redactAssignedValue(key, value);
    values.set(value, redacted);
  }
  return redacted;
}

/** A command string read as the words a shell-free tokenizer would give: `mysql -u root -pS3cret db` hides `S3cret`. */
function redactCommandLine(command: string): string {
  const parts = command.split(/(\s+)/);
  const words = parts.filter((_, index) => index % 2 === 0);
  const redacted = redactArgv(words);
  return redactSecrets(parts.map((part, index) => (index % 2 === 0 ? (redacted[index / 2] ?? part) : part)).join('')).text;
}

/**
 * A document on its way to a file: JSON is redacted as a tree and written back in the same layout (two-space indent
 * or compact, trailing newline kept); anything else is redacted as text. Unchanged content is returned as is.
 */
export function redactDocument(name: string, content: string): string {
  if (name.endsWith('.json') || name.endsWith('.sarif')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      return redactSecrets(content).text;
    }
    const redacted = redactTree(parsed);
    if (redacted === parsed) return content;
    const indent = /^[[{]\n {2}"/.test(content) ? 2 : undefined;
    return `${JSON.stringify(redacted, null, indent)}${content.endsWith('\n') ? '\n' : ''}`;
  }
  return redactSecrets(content).text;
}
