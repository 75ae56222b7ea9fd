/** Key classification shared by the generic text rule and redactAssignedValue: names, mentions or has no secret. */
import { ENV_KEY } from './values.js';

/** Last key words that name the secret itself. */
const SECRET_NOUNS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'secret',
  'token',
  'apikey',
  'secretkey',
  'accesskey',
  'privatekey',
  'authtoken',
  'clientsecret',
  'credential',
  'cred',
  'authorization',
]);
const SECRET_NOUN_ENDINGS = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'secretkey', 'accesskey', 'privatekey'];
/** Words that mention a secret without naming the value (`auth`, bare `key`, `pwd` is also the working directory). */
const WEAK_SECRET_WORDS = new Set(['auth', 'key', 'pwd']);
const PLURAL_NOUNS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'pwd', 'apikey', 'key', 'credential', 'cred', 'auth']);
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'private',
  'secret',
  'client',
  'signing',
  'encryption',
  'master',
  'license',
  'ssh',
  'deploy',
  'service',
  'app',
  'account',
  'shared',
  'session',
  'hmac',
  'jwt',
  'webhook',
  'consumer',
  'subscription',
  'admin',
  'auth',
  'decryption',
  'crypto',
  'aes',
  'gpg',
  'pgp',
  'rsa',
  'sas',
  'root',
  'bot',
  'integration',
  'write',
  'read',
]);
/** `<qualifier>Key` names that are data or UI keys, never credentials. */
const NON_SECRET_KEY_QUALIFIERS = new Set([
  'sort',
  'primary',
  'foreign',
  'cache',
  'idempotency',
  'idempotence',
  'partition',
  'hot',
  'shortcut',
  'short',
  'lookup',
  'unique',
  'composite',
  'compound',
  'row',
  'range',
  'hash',
  'dedupe',
  'dedup',
  'group',
  'index',
  'map',
  'object',
  'item',
  'list',
  'react',
  'query',
  'route',
  'state',
  'translation',
  'i18n',
  'message',
  'label',
  'field',
  'column',
  'order',
  'lock',
  'cursor',
  'page',
  'event',
  'metric',
  'config',
  'setting',
  'header',
  'public',
  'natural',
  'surrogate',
  'candidate',
  'cluster',
  'shard',
  'routing',
  'file',
  'path',
  'id',
  'name',
  'dict',
  'registry',
  'prop',
  'attribute',
  'attr',
  'data',
  'type',
  'table',
  'record',
  'entity',
  'search',
  'filter',
  'option',
  'menu',
  'hint',
  'locale',
  'context',
  'slot',
  'store',
  'local',
  'memo',
  'dependency',
  'deps',
  'sequence',
  'version',
  'tenant',
  'request',
  'job',
  'task',
  'queue',
  'topic',
  'stream',
  'tag',
  'node',
  'child',
  'parent',
  'next',
  'prev',
  'last',
  'first',
  'enter',
  'escape',
  'arrow',
  'modifier',
  'press',
  'down',
  'up',
  'mapping',
  'binding',
  'cell',
  'sheet',
  'lang',
  'i18next',
]);
export function keySegments(key: string): string[] {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  return words.map((word) => (word.endsWith('s') && PLURAL_NOUNS.has(word.slice(0, -1)) ? word.slice(0, -1) : word));
}

function isSecretNoun(segment: string): boolean {
  return SECRET_NOUNS.has(segment) || SECRET_NOUN_ENDINGS.some((noun) => segment.endsWith(noun));
}

export type KeyKind = 'names-secret' | 'mentions-secret' | 'not-secret';

/**
 * One classification for the text rule and redactAssignedValue. An UPPER_SNAKE key is an environment variable: there
 * any `*_KEY` but a data key (`SORT_KEY`) names a secret, and `*_PWD` does too (bare `PWD`/`OLDPWD` is a directory).
 */
/**
 * First words that make a key a function or method name (`redactSecrets`, `validateToken`, `get_password`), whose
 * "value" in prose or a test title is a description (`redactSecrets: properties`). Noun adjuncts that also read as
 * verbs (`reset`, `refresh`, `access`, `session`, `verify` in `VERIFY_TOKEN`) are not listed: `resetToken: …` is a
 * secret. Such a key only mentions a secret: a secret-shaped value after it is still redacted. Environment-style keys
 * never count as function names.
 */
const FUNCTION_VERBS = new Set([
  'get',
  'set',
  'redact',
  'validate',
  'check',
  'parse',
  'mask',
  'hide',
  'strip',
  'remove',
  'read',
  'load',
  'fetch',
  'find',
  'create',
  'generate',
  'rotate',
  'revoke',
  'handle',
  'is',
  'has',
  'use',
  'make',
  'build',
  'encode',
  'decode',
  'encrypt',
  'decrypt',
  'store',
  'save',
  'update',
  'delete',
  'clear',
  'ensure',
  'sanitize',
  'scrub',
  'print',
  'log',
  'format',
  'render',
  'compare',
  'require',
  'extract',
  'issue',
  'mint',
  'detect',
  'scan',
  'test',
  'assert',
  'expect',
  'should',
]);

export function classifyKey(key: string): KeyKind {
  const segments = keySegments(key);
  if (!segments.some((segment) => isSecretNoun(segment) || WEAK_SECRET_WORDS.has(segment))) return 'not-secret';
  const last = segments[segments.length - 1] ?? '';
  const previous = segments[segments.length - 2];
  const isEnv = ENV_KEY.test(key.replace(/^\$/, ''));
  if (!isEnv && segments.length > 1 && FUNCTION_VERBS.has(segments[0] ?? '')) return 'mentions-secret';
  if (last === 'key') {
    if (previous !== undefined && NON_SECRET_KEY_QUALIFIERS.has(previous)) return 'not-secret';
    if ((previous !== undefined && KEY_QUALIFIERS.has(previous)) || isEnv) return 'names-secret';
    return 'mentions-secret';
  }
  if (last === 'pwd') return isEnv && previous !== undefined && previous !== 'old' ? 'names-secret' : 'mentions-secret';
  return isSecretNoun(last) ? 'names-secret' : 'mentions-secret';
}

/** `--password`, `-Ddb.password`, `-passin`: a command-line flag, whose value is whatever follows it. */
export function isFlag(key: string): boolean {
  return /^--?[A-Za-z][\w.-]*$/.test(key);
}
