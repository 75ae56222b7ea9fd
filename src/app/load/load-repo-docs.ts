import { getMarkdownTitle } from '../../repo-text/markdown.js';
import { parseMemoryFile } from '../../repo-text/memory-file.js';
import { getWorkspacePatterns, toPackage } from '../../repo-text/packages.js';
import { parsePnpmWorkspace } from '../../repo-text/pnpm-workspace.js';
import { parseSkillFile, SAFE_NAME, SKILL_DESCRIPTION_CHARS } from '../../repo-text/skill.js';
import type { Diagnostic } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { DecisionDoc, MemoryEntry, PackageManifest, RepoDocsData, SkillSummary } from '../../model/graph.js';
import { toInputCode } from '../../model/repo-files.js';
import { compareText } from '../../text/compare-text.js';
import { compileGlobs } from '../../text/glob.js';
import { isRecord } from '../../text/is-record.js';

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

/** Reads one repository input through the contained reader; refusals become diagnostics, a missing file is undefined. */
async function readInput(env: Env, path: string, maxBytes: number, diagnostics: Diagnostic[]): Promise<string | undefined> {
  const read = await env.files.readText(path, { maxBytes, invalidUtf8: 'replace' });
  if (read.ok) return read.text;
  if (read.reason === 'missing') return undefined;
  diagnostics.push({
    code: `repo-docs/${toInputCode(read.reason).replace(/^input\//, '')}`,
    severity: 'warn',
    message: `${read.message}; skipped`,
    hint: read.hint,
    location: { file: path },
  });
  return undefined;
}

/**
 * A folder's entries, symlinks counted as folders (what they lead to is checked when read). A folder that leads out of
 * the repository is a diagnostic and lists nothing; a missing one lists nothing.
 */
async function listFolder(env: Env, folder: string, diagnostics: Diagnostic[]): Promise<{ name: string; isDirectoryLike: boolean }[]> {
  const listing = await env.files.list(folder);
  if (!listing.ok) {
    if (listing.reason === 'outside-repo' || listing.reason === 'unreadable') {
      diagnostics.push({
        code: `repo-docs/${toInputCode(listing.reason).replace(/^input\//, '')}`,
        severity: 'warn',
        message: `${listing.message}; skipped`,
        hint: listing.hint,
        location: { file: folder },
      });
    }
    return [];
  }
  return listing.entries.map((entry) => ({ name: entry.name, isDirectoryLike: entry.kind === 'directory' || entry.kind === 'symlink' }));
}

function getBaseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

async function readDecisions(env: Env, files: readonly string[], diagnostics: Diagnostic[]): Promise<DecisionDoc[]> {
  // Compiling the globs on RE2 costs ~20 ms: callers that list no files (the bundle's skill lookup) skip it.
  if (files.length === 0) return [];
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
    const text = await readInput(env, path, LIMITS.decisionBytes, diagnostics);
    if (text === undefined) continue;
    const capped = text.length > LIMITS.decisionTextChars ? text.slice(0, LIMITS.decisionTextChars) : text;
    decisions.push({ path, title: getMarkdownTitle(capped, getBaseName(path).replace(/\.[^.]+$/, '')), text: capped });
  }
  return decisions;
}

async function readMemory(env: Env, files: readonly string[], diagnostics: Diagnostic[]): Promise<MemoryEntry[]> {
  const isMemoryFile = (path: string): boolean => /^\.checker\/memory\/[^/]+\.(?:ya?ml|json|md)$/.test(path);
  const listed = (await listFolder(env, MEMORY_FOLDER, diagnostics))
    .filter((entry) => !entry.isDirectoryLike)
    .map((entry) => `${MEMORY_FOLDER}/${entry.name}`);
  const paths = [...new Set([...files.filter(isMemoryFile), ...listed.filter(isMemoryFile)])].sort(compareText);
  const memory: MemoryEntry[] = [];
  for (const path of paths) {
    const text = await readInput(env, path, LIMITS.memoryBytes, diagnostics);
    if (text === undefined) continue;
    const parsed = parseMemoryFile(path, text, (name, data) => env.checkSchema(name, data));
    memory.push(...parsed.entries);
    diagnostics.push(...parsed.diagnostics);
  }
  return memory;
}

async function readSkills(env: Env, files: readonly string[], diagnostics: Diagnostic[]): Promise<SkillSummary[]> {
  const fromFiles = files.filter((path) => /^\.agents\/skills\/[^/]+\/SKILL\.md$/.test(path));
  const folders = (await listFolder(env, SKILLS_FOLDER, diagnostics)).filter((entry) => entry.isDirectoryLike).map((entry) => entry.name);
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
    const text = await readInput(env, path, LIMITS.skillBytes, diagnostics);
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

async function readManifest(env: Env, path: string, diagnostics: Diagnostic[]): Promise<Record<string, unknown> | undefined> {
  const text = await readInput(env, path, LIMITS.packageJsonBytes, diagnostics);
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

async function readPackages(env: Env, files: readonly string[], diagnostics: Diagnostic[]): Promise<PackageManifest[]> {
  const rootManifest = await readManifest(env, 'package.json', diagnostics);
  let pnpmPackages: string[] = [];
  if (files.includes('pnpm-workspace.yaml')) {
    const text = await readInput(env, 'pnpm-workspace.yaml', LIMITS.packageJsonBytes, diagnostics);
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
    const manifest = await readManifest(env, path, diagnostics);
    if (manifest !== undefined) packages.push(toPackage(manifest, path.slice(0, -'/package.json'.length)));
  }
  return packages;
}

async function readCodeowners(env: Env, diagnostics: Diagnostic[]): Promise<{ path: string; text: string } | undefined> {
  for (const path of CODEOWNERS_CANDIDATES) {
    const text = await readInput(env, path, LIMITS.codeownersBytes, diagnostics);
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
export async function loadRepoDocs(env: Env, files: readonly string[]): Promise<RepoDocsData> {
  const diagnostics: Diagnostic[] = [];
  const codeowners = await readCodeowners(env, diagnostics);
  const decisions = await readDecisions(env, files, diagnostics);
  const memory = await readMemory(env, files, diagnostics);
  const skills = await readSkills(env, files, diagnostics);
  const packages = await readPackages(env, files, diagnostics);
  const docs: RepoDocsData = { decisions, memory, skills, packages, diagnostics };
  if (codeowners !== undefined) docs.codeowners = codeowners;
  return docs;
}
