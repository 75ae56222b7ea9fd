import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { compileGlobs } from '../text/glob.js';
import { parse as parseYaml } from 'yaml';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { isCheckerError, type Diagnostic } from '../model/diagnostic.js';
import type { DecisionDoc, MemoryEntry, MemoryKind, PackageManifest, SkillSummary } from '../model/graph.js';

import { getMarkdownTitle } from '../docs/markdown.js';
import { splitMarkdownMemory } from '../docs/memory-markdown.js';
import { getWorkspacePatterns, toPackage } from '../docs/packages.js';
import { parsePnpmWorkspace } from '../docs/pnpm-workspace.js';
import { parseSkillFile, SAFE_NAME, SKILL_DESCRIPTION_CHARS } from '../docs/skill.js';
import { readRepoFile } from './read-repo-file.js';
import { assertDepth, formatAjvError, getValidator } from './schema.js';
import { compareText } from '../text/compare-text.js';
import { isRecord } from '../text/is-record.js';

/** Where decision records and design docs are looked for (Markdown only; matched case-insensitively). */
const DECISION_GLOBS = [
  'docs/adr/**/*.{md,markdown}',
  'docs/decisions/**/*.{md,markdown}',
  'doc/adr/**/*.{md,markdown}',
  'doc/decisions/**/*.{md,markdown}',
  'adr/**/*.{md,markdown}',
  'decisions/**/*.{md,markdown}',
  'docs/architecture/**/*.{md,markdown}',
  'docs/design/**/*.{md,markdown}',
  'ARCHITECTURE.md',
  'DESIGN.md',
  'docs/ARCHITECTURE.md',
  'docs/DESIGN.md',
];
/** The CODEOWNERS locations GitHub reads, in the order it looks for them; the first found is used. */
const CODEOWNERS_CANDIDATES = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'];
const MEMORY_FOLDER = '.checker/memory';
const SKILLS_FOLDER = '.agents/skills';

const LIMITS = {
  /** GitHub ignores CODEOWNERS files over 3 MB. */
  codeownersBytes: 3 * 1024 * 1024,
  decisionBytes: 1024 * 1024,
  decisionTextChars: 64 * 1024,
  maxDecisions: 1000,
  memoryBytes: 1024 * 1024,
  skillBytes: 256 * 1024,
  skillDescriptionChars: SKILL_DESCRIPTION_CHARS,
  packageJsonBytes: 1024 * 1024,
} as const;

const MEMORY_KINDS: readonly MemoryKind[] = ['invariant', 'architecture', 'regression', 'note'];

export interface RepoDocs {
  codeowners?: { path: string; text: string };
  decisions: DecisionDoc[];
  memory: MemoryEntry[];
  skills: SkillSummary[];
  packages: PackageManifest[];
  diagnostics: Diagnostic[];
}

function isMemoryKind(value: string): value is MemoryKind {
  return MEMORY_KINDS.some((kind) => kind === value);
}

/** Reads one repository input through the contained reader; refusals become diagnostics, a missing file is undefined. */
async function readInput(root: string, path: string, maxBytes: number, diagnostics: Diagnostic[]): Promise<string | undefined> {
  try {
    return await readRepoFile(root, path, { maxBytes, fatalUtf8: false });
  } catch (error) {
    if (isCheckerError(error) && error.code === 'input/not-found') return undefined;
    const reason = isCheckerError(error) ? error.code.replace(/^input\//, '') : 'unreadable';
    diagnostics.push({
      code: `repo-docs/${reason}`,
      severity: 'warn',
      message: `${error instanceof Error ? error.message : String(error)}; skipped`,
      hint: isCheckerError(error) && error.hint !== undefined ? error.hint : 'make it a regular, readable file inside the repository',
      location: { file: path },
    });
    return undefined;
  }
}

async function listFolder(root: string, folder: string): Promise<{ name: string; isDirectoryLike: boolean }[]> {
  try {
    const entries = await readdir(join(root, folder), { withFileTypes: true });
    return entries
      .map((entry) => ({ name: entry.name, isDirectoryLike: entry.isDirectory() || entry.isSymbolicLink() }))
      .sort((left, right) => compareText(left.name, right.name));
  } catch {
    return [];
  }
}

function getBaseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

async function readDecisions(root: string, files: readonly string[], diagnostics: Diagnostic[]): Promise<DecisionDoc[]> {
  const isDecision = compileGlobs(DECISION_GLOBS, { nocase: true });
  const paths = files.filter((path) => isDecision(path)).sort(compareText);
  if (paths.length > LIMITS.maxDecisions) {
    diagnostics.push({
      code: 'repo-docs/too-many-decisions',
      severity: 'info',
      message: `${paths.length} decision documents found; only the first ${LIMITS.maxDecisions} by path are read`,
      hint: 'archive superseded decision records outside the decision folders',
    });
  }
  const decisions: DecisionDoc[] = [];
  for (const path of paths.slice(0, LIMITS.maxDecisions)) {
    const text = await readInput(root, path, LIMITS.decisionBytes, diagnostics);
    if (text === undefined) continue;
    const capped = text.length > LIMITS.decisionTextChars ? text.slice(0, LIMITS.decisionTextChars) : text;
    decisions.push({ path, title: getMarkdownTitle(capped, getBaseName(path).replace(/\.[^.]+$/, '')), text: capped });
  }
  return decisions;
}

interface EntryValidation {
  entry?: MemoryEntry;
  diagnostics: Diagnostic[];
}

function describeEntry(index: number, id: unknown): string {
  return typeof id === 'string' && id !== '' ? `entry ${index + 1} ("${id}")` : `entry ${index + 1}`;
}

function toMemoryDiagnostic(path: string, where: string, error: ErrorObject): Diagnostic {
  const formatted = formatAjvError(error);
  return {
    code: 'memory/invalid',
    severity: 'warn',
    message: `${path}: ${where}: ${formatted.message}; the entry is skipped`,
    hint: `${formatted.hint} (see docs/memory-and-docs.md)`,
    location: { file: path },
  };
}

function validateEntry(path: string, index: number, raw: unknown): EntryValidation {
  const validate = getValidator('memory');
  if (validate({ entries: [raw] })) {
    if (!isRecord(raw)) return { diagnostics: [] };
    const { id, kind, text, title, paths, terms } = raw;
    if (typeof id !== 'string' || typeof kind !== 'string' || !isMemoryKind(kind) || typeof text !== 'string') return { diagnostics: [] };
    const entry: MemoryEntry = {
      path,
      id,
      kind,
      text,
      paths: Array.isArray(paths) ? paths.filter((item): item is string => typeof item === 'string') : [],
      terms: Array.isArray(terms) ? terms.filter((item): item is string => typeof item === 'string').map((term) => term.toLowerCase()) : [],
    };
    if (typeof title === 'string') entry.title = title;
    return { entry, diagnostics: [] };
  }
  const error = validate.errors?.[0];
  if (error === undefined) return { diagnostics: [] };
  const pointer = error.instancePath.replace(/^\/entries\/0/, `/entries/${index}`);
  const id = isRecord(raw) ? raw.id : undefined;
  return { diagnostics: [toMemoryDiagnostic(path, describeEntry(index, id), { ...error, instancePath: pointer })] };
}

function collectEntries(path: string, raws: unknown[]): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  const entries: MemoryEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  raws.forEach((raw, index) => {
    const result = validateEntry(path, index, raw);
    diagnostics.push(...result.diagnostics);
    const entry = result.entry;
    if (entry === undefined) return;
    if (seen.has(entry.id)) {
      diagnostics.push({
        code: 'memory/duplicate-id',
        severity: 'warn',
        message: `${path}: ${describeEntry(index, entry.id)} repeats an id used earlier in the file; the entry is skipped`,
        hint: 'give every entry of a memory file its own id',
        location: { file: path },
      });
      return;
    }
    seen.add(entry.id);
    entries.push(entry);
  });
  return { entries, diagnostics };
}

function parseStructuredMemory(path: string, text: string): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 50 });
    assertDepth(data, { code: 'memory/too-deep', file: path });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      entries: [],
      diagnostics: [
        {
          code: isCheckerError(error) ? error.code : 'memory/parse',
          severity: 'warn',
          message: `${path}: cannot be parsed (${message}); the file is skipped`,
          hint: 'fix the syntax; the format is described in docs/memory-and-docs.md',
          location: { file: path },
        },
      ],
    };
  }
  const validate = getValidator('memory');
  const shell = isRecord(data) && Array.isArray(data.entries) ? { ...data, entries: [] } : data;
  if (!validate(shell)) {
    const error = validate.errors?.[0];
    const diagnostic: Diagnostic =
      error === undefined
        ? {
            code: 'memory/invalid',
            severity: 'warn',
            message: `${path}: invalid memory file; the file is skipped`,
            location: { file: path },
          }
        : { ...toMemoryDiagnostic(path, 'the file', error), message: `${path}: ${formatAjvError(error).message}; the file is skipped` };
    return { entries: [], diagnostics: [diagnostic] };
  }
  return collectEntries(path, isRecord(data) && Array.isArray(data.entries) ? data.entries : []);
}

function parseMarkdownMemory(path: string, text: string): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  const split = splitMarkdownMemory(path, text);
  return 'diagnostic' in split ? { entries: [], diagnostics: [split.diagnostic] } : collectEntries(path, split.raws);
}

/** Parses one memory file (YAML, JSON or Markdown); malformed files and entries become diagnostics. */
export function parseMemoryFile(path: string, text: string): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  return path.endsWith('.md') ? parseMarkdownMemory(path, text) : parseStructuredMemory(path, text);
}

async function readMemory(root: string, files: readonly string[], diagnostics: Diagnostic[]): Promise<MemoryEntry[]> {
  const isMemoryFile = (path: string): boolean => /^\.checker\/memory\/[^/]+\.(?:ya?ml|json|md)$/.test(path);
  const listed = (await listFolder(root, MEMORY_FOLDER))
    .filter((entry) => !entry.isDirectoryLike)
    .map((entry) => `${MEMORY_FOLDER}/${entry.name}`);
  const paths = [...new Set([...files.filter(isMemoryFile), ...listed.filter(isMemoryFile)])].sort(compareText);
  const memory: MemoryEntry[] = [];
  for (const path of paths) {
    const text = await readInput(root, path, LIMITS.memoryBytes, diagnostics);
    if (text === undefined) continue;
    const parsed = parseMemoryFile(path, text);
    memory.push(...parsed.entries);
    diagnostics.push(...parsed.diagnostics);
  }
  return memory;
}

async function readSkills(root: string, files: readonly string[], diagnostics: Diagnostic[]): Promise<SkillSummary[]> {
  const fromFiles = files.filter((path) => /^\.agents\/skills\/[^/]+\/SKILL\.md$/.test(path));
  const folders = (await listFolder(root, SKILLS_FOLDER)).filter((entry) => entry.isDirectoryLike).map((entry) => entry.name);
  const candidates = new Set(fromFiles);
  for (const folder of folders) candidates.add(`${SKILLS_FOLDER}/${folder}/SKILL.md`);
  const skills: SkillSummary[] = [];
  const names = new Set<string>();
  for (const path of [...candidates].sort(compareText)) {
    const folder = path.split('/')[2] ?? '';
    if (!SAFE_NAME.test(folder)) {
      diagnostics.push({
        code: 'skill/invalid-folder',
        severity: 'info',
        message: `${JSON.stringify(folder)} is not a plain skill folder name; skipped`,
        hint: 'name skill folders with letters, digits, ".", "_" and "-"',
        location: { file: path },
      });
      continue;
    }
    const text = await readInput(root, path, LIMITS.skillBytes, diagnostics);
    if (text === undefined) continue;
    const parsed = parseSkillFile(path, text);
    diagnostics.push(...parsed.diagnostics);
    if (names.has(parsed.skill.name)) {
      diagnostics.push({
        code: 'skill/duplicate-name',
        severity: 'info',
        message: `${path}: skill name "${parsed.skill.name}" is already used by another SKILL.md; skipped`,
        location: { file: path },
      });
      continue;
    }
    names.add(parsed.skill.name);
    skills.push(parsed.skill);
  }
  return skills;
}

async function readManifest(root: string, path: string, diagnostics: Diagnostic[]): Promise<Record<string, unknown> | undefined> {
  const text = await readInput(root, path, LIMITS.packageJsonBytes, diagnostics);
  if (text === undefined) return undefined;
  try {
    const data: unknown = JSON.parse(text);
    if (isRecord(data)) return data;
  } catch {
    // reported below
  }
  diagnostics.push({
    code: 'repo-docs/invalid-package-json',
    severity: 'warn',
    message: `${path} is not a JSON object; the package is skipped`,
    hint: 'fix the JSON syntax of the manifest',
    location: { file: path },
  });
  return undefined;
}

async function readPackages(root: string, files: readonly string[], diagnostics: Diagnostic[]): Promise<PackageManifest[]> {
  const rootManifest = await readManifest(root, 'package.json', diagnostics);
  let pnpmPackages: string[] = [];
  if (files.includes('pnpm-workspace.yaml')) {
    const text = await readInput(root, 'pnpm-workspace.yaml', LIMITS.packageJsonBytes, diagnostics);
    const parsed = text === undefined ? [] : parsePnpmWorkspace(text);
    if (parsed !== undefined) pnpmPackages = parsed;
    else {
      diagnostics.push({
        code: 'repo-docs/invalid-pnpm-workspace',
        severity: 'warn',
        message: 'pnpm-workspace.yaml is not valid YAML; its packages are ignored',
        location: { file: 'pnpm-workspace.yaml' },
      });
    }
  }
  const packages: PackageManifest[] = [];
  if (rootManifest !== undefined) packages.push(toPackage(rootManifest, ''));
  const patterns = getWorkspacePatterns(rootManifest, pnpmPackages);
  const include = patterns
    .filter((pattern) => !pattern.startsWith('!'))
    .map((pattern) => `${pattern.replace(/^\.\//, '').replace(/\/+$/, '')}/package.json`);
  const exclude = patterns
    .filter((pattern) => pattern.startsWith('!'))
    .map((pattern) => `${pattern.slice(1).replace(/^\.\//, '').replace(/\/+$/, '')}/package.json`);
  if (include.length === 0) return packages;
  const isIncluded = compileGlobs(include);
  const isExcluded = compileGlobs(exclude);
  const manifests = files
    .filter((path) => path !== 'package.json' && !path.split('/').includes('node_modules') && isIncluded(path) && !isExcluded(path))
    .sort(compareText);
  for (const path of manifests) {
    const manifest = await readManifest(root, path, diagnostics);
    if (manifest !== undefined) packages.push(toPackage(manifest, path.slice(0, -'/package.json'.length)));
  }
  return packages;
}

async function readCodeowners(root: string, diagnostics: Diagnostic[]): Promise<{ path: string; text: string } | undefined> {
  for (const path of CODEOWNERS_CANDIDATES) {
    const text = await readInput(root, path, LIMITS.codeownersBytes, diagnostics);
    if (text !== undefined) return { path, text };
  }
  return undefined;
}

/**
 * Reads the inputs around the code for the knowledge graph: CODEOWNERS, decision docs, `.checker/memory`,
 * repo-local skills (as text) and workspace package manifests. `files` is the scanner's list of repository
 * paths; every read is contained (realpath inside the repository, regular file, size cap), and anything
 * refused or malformed becomes a diagnostic instead of an error.
 */
export async function readRepoDocs(root: string, files: readonly string[]): Promise<RepoDocs> {
  const diagnostics: Diagnostic[] = [];
  const codeowners = await readCodeowners(root, diagnostics);
  const decisions = await readDecisions(root, files, diagnostics);
  const memory = await readMemory(root, files, diagnostics);
  const skills = await readSkills(root, files, diagnostics);
  const packages = await readPackages(root, files, diagnostics);
  const docs: RepoDocs = { decisions, memory, skills, packages, diagnostics };
  if (codeowners !== undefined) docs.codeowners = codeowners;
  return docs;
}
