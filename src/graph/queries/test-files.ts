import type { KnowledgeStore } from '../build.js';
import type { Span } from '../../model/facts.js';
import { createGraphCache } from '../graph-cache.js';
import { toFileId } from '../ids.js';
import { isTestNamedPath } from '../roles.js';

const cache = createGraphCache<ReadonlySet<string>>();
const SCRIPT = /\.[cm]?[jt]sx?$/;
/** Folders of what tests use, never run by themselves: fixtures (often spawned as child processes), helpers, support, mocks. */
const SUPPORT_FOLDER = /(?:^|\/)(?:__fixtures__|fixtures?|helpers?|support|__mocks__|mocks?)\//;

/**
 * The test files as a runner sees them: files that declare test cases (a `describe` alone is none outside a file
 * named as a test; cases declared only inside exported functions other tests import are theirs, `isSharedCases`), and
 * files in a test folder or with a test name that nothing imports and that export nothing (a runner's entry whose tests
 * checker could not read; a module that exports, such as a vitest `globalSetup` exporting `setup`, is loaded by
 * something, not run). A file in a test folder that declares no tests and that other files import is test support (a
 * shared server, fixtures, a setup helper): reach passes through it to the tests that use it, and it is never counted
 * or listed as a test itself; so is a file that declares no tests in a fixtures, helpers, support or mocks folder,
 * imported or not (a fixture a test spawns as a process).
 */
export function listTestFiles(graph: KnowledgeStore): ReadonlySet<string> {
  const cached = cache.get(graph);
  if (cached !== undefined) return cached;
  const cases = new Map<string, Span[]>();
  const exported = new Map<string, Span[]>();
  const named: string[] = [];
  const add = (spans: Map<string, Span[]>, path: string, span: Span): void => {
    const list = spans.get(path);
    if (list === undefined) spans.set(path, [span]);
    else list.push(span);
  };
  graph.forEachNode((id, attributes) => {
    // A suite alone declares no test, unless the file is named as one (its cases may be written in a way checker does
    // not read): a file whose only declarations are `describe` blocks inside an exported helper (h3's test/_setup.ts
    // `describeMatrix`) is judged as any other file of the test folder below.
    if (attributes.kind === 'test' && (attributes.testKind === 'test' || isTestNamedPath(attributes.file)))
      add(cases, attributes.file, attributes.span);
    else if (attributes.kind === 'export' && !attributes.typeOnly) add(exported, attributes.path, attributes.span);
    else if (attributes.kind === 'file' && attributes.role === 'test') named.push(id);
  });
  const isImported = (id: string): boolean => {
    let imported = false;
    graph.forEachInEdge(id, (_edge, edge) => {
      if (edge.kind === 'imports' || edge.kind === 'reexports') imported = true;
    });
    return imported;
  };
  const declaring = new Set<string>();
  for (const [path, spans] of cases)
    if (!isSharedCases(path, spans, exported.get(path) ?? []) || !isImported(toFileId(path))) declaring.add(path);
  const tests = new Set(declaring);
  for (const id of named) {
    const attributes = graph.getNodeAttributes(id);
    // A program run by hand (`#!/usr/bin/env node`, trpc's test/scripts/codegen.run.ts) is no runner's entry either.
    if (attributes.kind !== 'file' || attributes.program === true || declaring.has(attributes.path) || SUPPORT_FOLDER.test(attributes.path))
      continue;
    // A module that exports is loaded by something (a runner's `globalSetup` exporting `setup`), not run as a suite.
    let exports = false;
    graph.forEachOutEdge(id, (_edge, edge, _source, _target, _sourceAttributes, target) => {
      if (edge.kind === 'declares' && target.kind === 'export') exports = true;
    });
    if (!isImported(id) && !exports) tests.add(attributes.path);
  }
  cache.set(graph, tests);
  return tests;
}

/**
 * Test cases a script not named as a test declares only inside its exported functions (yup's test/helpers.ts
 * `castAll`, which calls `it` for each value; objection's suite modules `module.exports = (session) => { … }`): the
 * tests that import and call them declare the cases, and the runner runs those (yup's jest config ignores helpers.ts).
 */
function isSharedCases(path: string, cases: readonly Span[], exported: readonly Span[]): boolean {
  if (!SCRIPT.test(path) || isTestNamedPath(path) || exported.length === 0) return false;
  return cases.every((span) => exported.some((outer) => outer.start <= span.start && span.end <= outer.end));
}
