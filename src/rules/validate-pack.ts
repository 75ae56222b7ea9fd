import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { parseDocument } from 'yaml';
import { assertDepth, formatAjvError, joinFieldPath } from '../repo-text/schema-errors.js';
import { CheckerError } from '../model/diagnostic.js';
import {
  CUSTOM_OPERATORS,
  ENGINE_OPERATORS,
  FACT_CATALOGUE,
  OPERATOR_DECORATORS,
  PATH_CLASSES,
  PLACEHOLDER_PATTERN,
  PROOF_MESSAGE_DATA,
  RULE_LIMITS,
  SIGNAL_WORD_CLASSES,
  type ClassifierSection,
  type Condition,
  type ProofMessageId,
  type RulePack,
  type TopLevelCondition,
} from '../model/rules.js';
import type { SchemaCheck, SchemaIssue } from '../model/schema-issue.js';
import { toGlobSource } from '../text/glob.js';

const FORMAT_HINT = 'see docs/rule-packs.md for the rule-pack format';
const KNOWN_OPERATORS = new Set<string>([...ENGINE_OPERATORS, ...CUSTOM_OPERATORS]);
const KNOWN_DECORATORS = new Set<string>(OPERATOR_DECORATORS);

interface Problem {
  /** Index into `rules` when the problem sits inside a rule. */
  ruleIndex?: number;
  /** Dotted field path, relative to the rule when `ruleIndex` is set. */
  field: string;
  message: string;
  hint?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readString(value: unknown, key: string): string | undefined {
  if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
  const found = value[key];
  return typeof found === 'string' ? found : undefined;
}

function describeRule(data: unknown, ruleIndex: number): string {
  const rules = isRecord(data) ? data.rules : undefined;
  const id = Array.isArray(rules) ? readString(rules[ruleIndex], 'id') : undefined;
  return id === undefined ? `rules[${ruleIndex}]` : `rule "${id}"`;
}

function buildPackError(file: string, data: unknown, problem: Problem): CheckerError {
  const parts: string[] = [];
  const packId = readString(data, 'id');
  if (packId !== undefined) parts.push(`pack "${packId}"`);
  if (problem.ruleIndex !== undefined) parts.push(describeRule(data, problem.ruleIndex));
  const context = parts.length === 0 ? '' : `${parts.join(' ')}: `;
  const where = problem.field === '' ? '' : `${problem.field} `;
  return new CheckerError('pack/invalid', `${file}: ${context}${where}${problem.message}`, {
    hint: problem.hint ?? FORMAT_HINT,
    location: { file },
  });
}

function toOffsetPosition(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

function syntaxError(file: string, format: string, line: number, col: number, reason: string): CheckerError {
  return new CheckerError('pack/invalid', `${file}:${line}:${col}: ${format} syntax error: ${reason}`, {
    hint: `fix the ${format} syntax at line ${line}, column ${col}`,
    location: { file, line, col },
  });
}

function parseJsonPack(file: string, text: string): unknown {
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const first = errors[0];
  if (first !== undefined) {
    const { line, col } = toOffsetPosition(text, first.offset);
    throw syntaxError(file, 'JSON', line, col, printParseErrorCode(first.error));
  }
  return data;
}

/** The first line of a yaml error without the quoted source lines (they may hold secrets, security H38). */
function describeYamlError(message: string): string {
  const firstLine = message.split('\n')[0] ?? message;
  return firstLine.replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '');
}

function parseYamlPack(file: string, text: string): unknown {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = document.errors[0];
  if (first !== undefined) {
    const position = first.linePos?.[0] ?? { line: 1, col: 1 };
    throw syntaxError(file, 'YAML', position.line, position.col, describeYamlError(first.message));
  }
  try {
    return document.toJS();
  } catch (error) {
    throw new CheckerError(
      'pack/invalid',
      `${file}: YAML could not be expanded: ${error instanceof Error ? describeYamlError(error.message) : 'unknown error'}`,
      {
        hint: 'remove YAML aliases; at most 100 alias expansions are allowed',
        location: { file },
        cause: error,
      },
    );
  }
}

export function parsePackText(file: string, text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return /\.json$/i.test(file) ? parseJsonPack(file, body) : parseYamlPack(file, body);
}

const KEBAB = /^\^\[a-z\]\[a-z0-9\]\*\(\?:-\[a-z0-9\]\+\)\*\$$/;

function describePattern(pattern: string, field: string): string {
  if (pattern.startsWith('^(?:0|[1-9]')) return 'must be a semver version such as 1.0.0';
  if (KEBAB.test(pattern)) return 'must be kebab-case (lower-case words joined by -)';
  if (field.endsWith('id') && pattern.includes('/')) return 'must look like <kind>/<kebab-name>, such as risk/payments-touched';
  return `must match ${pattern}`;
}

function toSchemaProblem(error: SchemaIssue): Problem {
  const segments =
    error.instancePath === ''
      ? []
      : error.instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let ruleIndex: number | undefined;
  let relative = segments;
  if (segments[0] === 'rules' && segments[1] !== undefined && /^\d+$/.test(segments[1])) {
    ruleIndex = Number(segments[1]);
    relative = segments.slice(2);
  }
  const field = joinFieldPath(relative);
  const problem: Problem = { field: '', message: '' };
  if (ruleIndex !== undefined) problem.ruleIndex = ruleIndex;
  if (error.keyword === 'pattern') {
    const pattern = error.params.pattern;
    problem.field = field;
    problem.message = describePattern(typeof pattern === 'string' ? pattern : '', field);
    return problem;
  }
  const relativePointer = relative.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  const formatted = formatAjvError({ ...error, instancePath: relativePointer });
  problem.message = formatted.message;
  problem.hint = formatted.hint;
  return problem;
}

/** What every refused pattern is told: the engine, so the fix is a rewrite rather than a tweak. */
const REGEX_ENGINE_NOTE = 'repository patterns run on a linear-time engine (RE2 syntax)';

/** Turns RE2's refusal into what a JavaScript author needs to change; RE2 reports the offending piece of the pattern. */
function describeRe2Error(error: RE2JSSyntaxException): string {
  const piece = error.getPattern() ?? '';
  if (piece.startsWith('(?=') || piece.startsWith('(?!'))
    return `uses lookahead (${piece.slice(0, 3)}), which is not supported: rewrite without lookahead; ${REGEX_ENGINE_NOTE}`;
  if (piece.startsWith('(?<=') || piece.startsWith('(?<!'))
    return `uses lookbehind (${piece.slice(0, 4)}), which is not supported: rewrite without lookbehind; ${REGEX_ENGINE_NOTE}`;
  if (/^\\(?:[1-9]|k)/.test(piece))
    return `uses a back-reference (${piece.slice(0, 2)}), which is not supported: rewrite without back-references; ${REGEX_ENGINE_NOTE}`;
  if (piece.startsWith('\\u')) return `uses a \\u escape, which is not supported: write \\x{263A} for U+263A; ${REGEX_ENGINE_NOTE}`;
  const where = piece === '' ? '' : ` at \`${piece.slice(0, 40)}\``;
  return `is not a valid regular expression: ${error.getDescription()}${where}; ${REGEX_ENGINE_NOTE}, see docs/rule-packs.md`;
}

/**
 * Why a `matchesRegex` pattern is refused, or undefined. Patterns run on RE2, so any pattern RE2 compiles
 * matches in linear time (nested quantifiers such as `(a+)+` included); the limits bound the constant.
 */
export function findRegexProblem(source: string): string | undefined {
  if (source.length > RULE_LIMITS.regexSourceLength) return `is longer than ${RULE_LIMITS.regexSourceLength} characters`;
  let programSize: number;
  try {
    programSize = RE2JS.compile(source).programSize();
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) return describeRe2Error(error);
    return `is not a valid regular expression; ${REGEX_ENGINE_NOTE}, see docs/rule-packs.md`;
  }
  if (programSize > RULE_LIMITS.regexProgramSize) {
    return `compiles to ${programSize} instructions, more than the ${RULE_LIMITS.regexProgramSize} allowed: use smaller repetition counts (such as {1,50} instead of {1,1000})`;
  }
  return undefined;
}

/** Why a `matchesGlob` glob is refused, or undefined: it is too long, or needs a lookaround RE2 lacks. */
export function findGlobProblem(glob: string): string | undefined {
  if (glob.length > RULE_LIMITS.globLength) return `is longer than ${RULE_LIMITS.globLength} characters`;
  const body = glob.startsWith('!') && !glob.startsWith('!(') ? glob.slice(1) : glob;
  const compiled = toGlobSource(body, { dot: true });
  if ('problem' in compiled) {
    return compiled.problem.startsWith('uses a negated extglob')
      ? 'uses a negated extglob !(…) or a lookaround, which is not supported: list what to exclude in a separate not condition; repository globs run on a linear-time engine (RE2)'
      : 'is not a glob checker can compile; see docs/rule-packs.md';
  }
  try {
    RE2JS.compile(compiled.source);
  } catch {
    return 'is not a glob checker can compile; see docs/rule-packs.md';
  }
  return undefined;
}

function findPlaceholderProblems(text: string, factNames: ReadonlySet<string>): string[] {
  const unknown: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) {
    const name = match[1];
    if (name !== undefined && name !== 'subjectId' && !factNames.has(name)) unknown.push(name);
  }
  return unknown;
}

interface ConditionContext {
  factNames: ReadonlySet<string>;
  subject: string;
  shared: ReadonlySet<string>;
  problems: Problem[];
  ruleIndex: number | undefined;
  references: string[];
}

function pushProblem(context: ConditionContext, field: string, message: string, hint?: string): void {
  const problem: Problem = { field, message };
  if (context.ruleIndex !== undefined) problem.ruleIndex = context.ruleIndex;
  if (hint !== undefined) problem.hint = hint;
  context.problems.push(problem);
}

function checkFactName(context: ConditionContext, field: string, name: string): void {
  if (context.factNames.has(name)) return;
  pushProblem(
    context,
    field,
    `names unknown fact "${name}" for subject ${context.subject}`,
    `use one of: ${[...context.factNames].sort().join(', ')}`,
  );
}

const LIST_VALUE_OPERATORS = new Set(['in', 'notIn', 'intersects', 'startsWithAny', 'endsWithAny']);
const VALUE_KEEPING_DECORATORS = new Set(['not', 'someFact', 'everyFact']);

function checkOperatorValue(
  context: ConditionContext,
  field: string,
  operator: string,
  decorators: readonly string[],
  value: unknown,
): void {
  if (!decorators.every((decorator) => VALUE_KEEPING_DECORATORS.has(decorator))) return;
  if (LIST_VALUE_OPERATORS.has(operator) && !Array.isArray(value)) {
    pushProblem(context, field, `must be a list for ${operator}`);
    return;
  }
  if (operator !== 'matchesRegex' && operator !== 'matchesGlob') return;
  const strings = Array.isArray(value) ? value : [value];
  for (const item of strings) {
    if (typeof item !== 'string') {
      if (!isRecord(item)) pushProblem(context, field, `must be a string (or list of strings) for ${operator}`);
      continue;
    }
    if (operator === 'matchesRegex') {
      const problem = findRegexProblem(item);
      if (problem !== undefined) pushProblem(context, field, `pattern ${JSON.stringify(item.slice(0, 60))} ${problem}`);
    } else {
      const problem = findGlobProblem(item);
      if (problem !== undefined) pushProblem(context, field, `glob ${JSON.stringify(item.slice(0, 60))} ${problem}`);
    }
  }
}

function checkCondition(context: ConditionContext, condition: Condition, field: string): void {
  if ('all' in condition) {
    for (const [index, child] of condition.all.entries()) checkCondition(context, child, `${field}.all[${index}]`);
  } else if ('any' in condition) {
    for (const [index, child] of condition.any.entries()) checkCondition(context, child, `${field}.any[${index}]`);
  } else if ('not' in condition) checkCondition(context, condition.not, `${field}.not`);
  else if ('condition' in condition) {
    context.references.push(condition.condition);
    if (!context.shared.has(condition.condition)) {
      pushProblem(
        context,
        `${field}.condition`,
        `refers to unknown shared condition "${condition.condition}"`,
        'define it under sharedConditions',
      );
    }
  } else {
    checkFactName(context, `${field}.fact`, condition.fact);
    const parts = condition.operator.split(':');
    const operator = parts[parts.length - 1] ?? '';
    if (!KNOWN_OPERATORS.has(operator)) {
      pushProblem(context, `${field}.operator`, `names unknown operator "${operator}"`, `use one of: ${[...KNOWN_OPERATORS].join(', ')}`);
    }
    for (const decorator of parts.slice(0, -1)) {
      if (!KNOWN_DECORATORS.has(decorator)) {
        pushProblem(
          context,
          `${field}.operator`,
          `names unknown operator decorator "${decorator}"`,
          `use one of: ${OPERATOR_DECORATORS.join(', ')}`,
        );
      }
    }
    const value = condition.value;
    if (isRecord(value) && typeof value.fact === 'string') checkFactName(context, `${field}.value.fact`, value.fact);
    else checkOperatorValue(context, `${field}.value`, operator, parts.slice(0, -1), value);
  }
}

function findSharedConditionCycle(graph: ReadonlyMap<string, readonly string[]>): string | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string): string | undefined => {
    const seen = state.get(name);
    if (seen === 'done') return undefined;
    if (seen === 'visiting') return name;
    state.set(name, 'visiting');
    for (const next of graph.get(name) ?? []) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    state.set(name, 'done');
    return undefined;
  };
  for (const name of [...graph.keys()].sort()) {
    const cycle = visit(name);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

function findPatternListProblems(field: string, values: readonly string[] | undefined, kind: 'glob' | 'pattern'): Problem[] {
  const problems: Problem[] = [];
  for (const [index, value] of (values ?? []).entries()) {
    const problem = kind === 'glob' ? findGlobProblem(value) : findRegexProblem(value);
    if (problem !== undefined)
      problems.push({ field: `${field}[${index}]`, message: `${kind} ${JSON.stringify(value.slice(0, 60))} ${problem}` });
  }
  return problems;
}

/** Unknown class names, and globs or regexes RE2 cannot run, in a pack's `classifiers` section. */
function findClassifierProblems(section: ClassifierSection): Problem[] {
  const problems: Problem[] = [];
  const knownPaths = new Set<string>(PATH_CLASSES);
  for (const [name, data] of Object.entries(section.paths ?? {})) {
    const field = `classifiers.paths.${name}`;
    if (!knownPaths.has(name)) {
      problems.push({
        field,
        message: `names unknown path class "${name}"`,
        hint: `use one of: ${PATH_CLASSES.join(', ')} (a pack extends the built-in classes; it cannot add one)`,
      });
      continue;
    }
    problems.push(...findPatternListProblems(`${field}.globs`, data.globs, 'glob'));
    problems.push(...findPatternListProblems(`${field}.exclude`, data.exclude, 'glob'));
    problems.push(...findPatternListProblems(`${field}.regexes`, data.regexes, 'pattern'));
  }
  const knownSignals = new Set<string>(SIGNAL_WORD_CLASSES);
  for (const name of Object.keys(section.signals ?? {})) {
    if (knownSignals.has(name)) continue;
    problems.push({
      field: `classifiers.signals.${name}`,
      message: `names unknown signal class "${name}"`,
      hint: `use one of: ${SIGNAL_WORD_CLASSES.join(', ')} (a pack extends the built-in classes; it cannot add one)`,
    });
  }
  return problems;
}

/** A proof pack's message that no rule names is a changed-path proof message: a known id, placeholders from its data. */
function findProofMessageProblems(messageId: string, text: string): Problem[] {
  const field = `messages.${messageId}`;
  if (!isProofMessageId(messageId)) {
    return [
      {
        field,
        message: `names unknown proof message "${messageId}"`,
        hint: `use one of: ${Object.keys(PROOF_MESSAGE_DATA).join(', ')}, or name it from a rule's event.params.messageId`,
      },
    ];
  }
  const data: readonly string[] = PROOF_MESSAGE_DATA[messageId];
  const problems: Problem[] = [];
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) {
    const name = match[1];
    if (name === undefined || data.includes(name)) continue;
    problems.push({
      field,
      message: `has placeholder {{${name}}}, which the proof message ${messageId} has no data for`,
      hint: `use one of: ${data.map((key) => `{{${key}}}`).join(', ')}`,
    });
  }
  return problems;
}

function isProofMessageId(id: string): id is ProofMessageId {
  return Object.hasOwn(PROOF_MESSAGE_DATA, id);
}

/** Checks what the schema cannot: rule ids, facts, operators, references, placeholders and classifier classes. */
function findPackProblems(pack: RulePack): Problem[] {
  const problems: Problem[] = pack.classifiers === undefined ? [] : findClassifierProblems(pack.classifiers);
  const factNames = new Set(Object.keys(FACT_CATALOGUE[pack.subject]));
  const sharedConditions: Record<string, TopLevelCondition> = pack.sharedConditions ?? {};
  const shared = new Set(Object.keys(sharedConditions));
  const references = new Map<string, readonly string[]>();
  for (const name of [...shared].sort()) {
    const condition = sharedConditions[name];
    if (condition === undefined) continue;
    const context: ConditionContext = { factNames, subject: pack.subject, shared, problems, ruleIndex: undefined, references: [] };
    checkCondition(context, condition, `sharedConditions.${name}`);
    references.set(name, context.references);
  }
  const cycle = findSharedConditionCycle(references);
  if (cycle !== undefined)
    problems.push({ field: `sharedConditions.${cycle}`, message: 'refers to itself through a cycle of shared conditions' });
  if (pack.rules.length === 0 && pack.classifiers === undefined && pack.kind !== 'proof') {
    problems.push({
      field: 'rules',
      message: 'must hold at least one rule (only a proof pack of messages or a classifiers pack may have none)',
    });
  }
  const ruleMessageIds = new Set(pack.rules.map((rule) => rule.event.params.messageId));
  for (const [messageId, text] of Object.entries(pack.messages ?? {})) {
    if (pack.kind === 'proof' && !ruleMessageIds.has(messageId)) {
      problems.push(...findProofMessageProblems(messageId, text));
      continue;
    }
    for (const name of findPlaceholderProblems(text, factNames)) {
      problems.push({ field: `messages.${messageId}`, message: `has placeholder {{${name}}}, which is not a ${pack.subject} fact` });
    }
  }
  const firstIndexById = new Map<string, number>();
  pack.rules.forEach((rule, ruleIndex) => {
    const earlier = firstIndexById.get(rule.id);
    if (earlier !== undefined) {
      problems.push({
        ruleIndex,
        field: 'id',
        message: `is a duplicate of rules[${earlier}]`,
        hint: 'give every rule in a pack its own id',
      });
    } else firstIndexById.set(rule.id, ruleIndex);
    const prefix = rule.id.slice(0, rule.id.indexOf('/'));
    if (prefix !== pack.kind) {
      problems.push({
        ruleIndex,
        field: 'id',
        message: `must start with "${pack.kind}/" in a ${pack.kind} pack`,
        hint: `rename it to ${pack.kind}/${rule.id.slice(rule.id.indexOf('/') + 1)}`,
      });
    }
    if (rule.event.type !== rule.id) {
      problems.push({ ruleIndex, field: 'event.type', message: `must equal the rule id "${rule.id}"` });
    }
    const context: ConditionContext = { factNames, subject: pack.subject, shared, problems, ruleIndex, references: [] };
    checkCondition(context, rule.conditions, 'conditions');
    const { messageId } = rule.event.params;
    if (messageId !== undefined && pack.messages?.[messageId] === undefined) {
      problems.push({ ruleIndex, field: 'event.params.messageId', message: `names message "${messageId}", which is not under messages` });
    }
    for (const [key, value] of Object.entries(rule.event.params)) {
      if (typeof value !== 'string') continue;
      for (const name of findPlaceholderProblems(value, factNames)) {
        problems.push({
          ruleIndex,
          field: `event.params.${key}`,
          message: `has placeholder {{${name}}}, which is not a ${pack.subject} fact`,
        });
      }
    }
  });
  return problems;
}

function isRulePack(data: unknown, issue: SchemaIssue | undefined): data is RulePack {
  return issue === undefined;
}

/**
 * Validates a parsed pack (schemas/rule-pack.schema.json through `checkSchema`, then the semantic checks) and returns
 * it typed; throws `pack/invalid` naming the pack, rule and field.
 */
export function validatePackData(file: string, data: unknown, checkSchema: SchemaCheck): RulePack {
  assertDepth(data, { code: 'pack/invalid', file });
  const issue = checkSchema('rule-pack', data);
  if (!isRulePack(data, issue)) {
    throw buildPackError(file, data, issue === undefined ? { field: '', message: 'is invalid' } : toSchemaProblem(issue));
  }
  const first = findPackProblems(data)[0];
  if (first !== undefined) throw buildPackError(file, data, first);
  return data;
}

/** Parses (YAML, or JSON for `.json`) and validates one pack file's text; throws `pack/invalid`. */
export function validatePackFile(file: string, text: string, checkSchema: SchemaCheck): RulePack {
  return validatePackData(file, parsePackText(file, text), checkSchema);
}
