import type { KnowledgeStore } from '../build.js';
import { createGraphCache } from '../graph-cache.js';

const cache = createGraphCache<ReadonlySet<string>>();
/** Folders of what tests use, never run by themselves: fixtures (often spawned as child processes), helpers, support, mocks. */
const SUPPORT_FOLDER = /(?:^|\/)(?:__fixtures__|fixtures?|helpers?|support|__mocks__|mocks?)\//;

/**
 * The test files as a runner sees them: files that declare tests, and files in a test folder or with a test name that
 * nothing imports and that export nothing (a runner's entry whose tests checker could not read; a module that exports,
 * such as a vitest `globalSetup` exporting `setup`, is loaded by something, not run). A file in a test folder that declares no
 * tests and that other files import is test support (a shared server, fixtures, a setup helper): reach passes
 * through it to the tests that use it, and it is never counted or listed as a test itself; so is a file that declares no
 * tests in a fixtures, helpers, support or mocks folder, imported or not (a fixture a test spawns as a process).
 */
export function listTestFiles(graph: KnowledgeStore): ReadonlySet<string> {
  const cached = cache.get(graph);
  if (cached !== undefined) return cached;
  const declaring = new Set<string>();
  const named: string[] = [];
  graph.forEachNode((id, attributes) => {
    if (attributes.kind === 'test') declaring.add(attributes.file);
    else if (attributes.kind === 'file' && attributes.role === 'test') named.push(id);
  });
  const tests = new Set(declaring);
  for (const id of named) {
    const attributes = graph.getNodeAttributes(id);
    // A program run by hand (`#!/usr/bin/env node`, trpc's test/scripts/codegen.run.ts) is no runner's entry either.
    if (attributes.kind !== 'file' || attributes.program === true || declaring.has(attributes.path) || SUPPORT_FOLDER.test(attributes.path))
      continue;
    let imported = false;
    graph.forEachInEdge(id, (_edge, edge) => {
      if (edge.kind === 'imports' || edge.kind === 'reexports') imported = true;
    });
    // A module that exports is loaded by something (a runner's `globalSetup` exporting `setup`), not run as a suite.
    let exports = false;
    graph.forEachOutEdge(id, (_edge, edge, _source, _target, _sourceAttributes, target) => {
      if (edge.kind === 'declares' && target.kind === 'export') exports = true;
    });
    if (!imported && !exports) tests.add(attributes.path);
  }
  cache.set(graph, tests);
  return tests;
}
