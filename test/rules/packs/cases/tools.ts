import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const repo = {
  languages: ['ts'],
  sourceFileCount: 10,
  testFileCount: 3,
  hasTypeScript: true,
  testRunner: 'vitest',
  hasLinter: true,
  dependencies: [] as string[],
};

export const toolCases: Record<string, RuleCases> = {
  'tool/vitest-coverage': {
    valid: [
      { ...repo, hasCoverage: true },
      { ...repo, testRunner: 'jest' },
    ],
    invalid: [
      {
        facts: { ...repo },
        params: {
          weight: 5,
          tool: '@vitest/coverage-v8',
          install: 'npm install -D @vitest/coverage-v8 && npx vitest run --coverage --coverage.reporter=lcov',
        },
      },
    ],
  },
  'tool/c8-coverage': {
    valid: [
      { ...repo, testRunner: 'node', hasCoverage: true },
      { ...repo },
      { ...repo, testRunner: 'node', testFileCount: 0 },
      { ...repo, testRunner: 'node', languages: ['markdown'] },
    ],
    invalid: [
      {
        facts: { ...repo, testRunner: 'node' },
        params: { tool: 'c8', why: '3 test files run without coverage, so checker cannot prove changed lines ran' },
      },
    ],
  },
  'tool/stryker': {
    valid: [
      { ...repo, testFileCount: 4 },
      { ...repo, testFileCount: 10, dependencies: ['@stryker-mutator/core'] },
    ],
    invalid: [{ facts: { ...repo, testFileCount: 5 }, params: { tool: 'StrykerJS', weight: 3 } }],
  },
  'tool/playwright': {
    valid: [
      { ...repo, uiRouteCount: 0 },
      { ...repo, uiRouteCount: 3, dependencies: ['@playwright/test'] },
      { ...repo, uiRouteCount: 3, dependencies: ['cypress'] },
    ],
    invalid: [{ facts: { ...repo, uiRouteCount: 3 }, params: { tool: 'Playwright', why: '3 UI routes have no browser tests' } }],
  },
  'tool/schemathesis': {
    valid: [{ ...repo, hasOpenApi: false }],
    invalid: [{ facts: { ...repo, hasOpenApi: true }, params: { tool: 'Schemathesis' } }],
  },
  'tool/eslint': {
    valid: [{ ...repo }, { ...repo, hasLinter: false, sourceFileCount: 0 }, { ...repo, hasLinter: false, languages: ['yaml'] }],
    invalid: [{ facts: { ...repo, hasLinter: false }, params: { tool: 'ESLint', why: '10 source files and no linter configuration' } }],
  },
  'tool/typescript-eslint': {
    valid: [
      { ...repo, dependencies: ['typescript-eslint'] },
      { ...repo, dependencies: ['@typescript-eslint/parser'] },
      { ...repo, hasLinter: false },
      { ...repo, hasTypeScript: false },
    ],
    invalid: [{ facts: { ...repo, dependencies: ['eslint'] }, params: { tool: 'typescript-eslint' } }],
  },
  'tool/knip': {
    valid: [
      { ...repo, sourceFileCount: 19 },
      { ...repo, sourceFileCount: 40, dependencies: ['knip'] },
    ],
    invalid: [
      {
        facts: { ...repo, sourceFileCount: 20 },
        params: { tool: 'knip', why: '20 source files; knip finds unused files, exports and dependencies' },
      },
    ],
  },
  'tool/dependency-cruiser': {
    valid: [
      { ...repo, sourceFileCount: 49, workspaceCount: 1 },
      { ...repo, sourceFileCount: 80, dependencies: ['dependency-cruiser'] },
    ],
    invalid: [
      { facts: { ...repo, sourceFileCount: 50, workspaceCount: 1 }, params: { tool: 'dependency-cruiser' } },
      { facts: { ...repo, workspaceCount: 3 } },
    ],
  },
  'tool/fast-check': {
    valid: [
      { ...repo, parserSignalCount: 2 },
      { ...repo, parserSignalCount: 9, dependencies: ['fast-check'] },
    ],
    invalid: [
      {
        facts: { ...repo, parserSignalCount: 3 },
        params: { tool: 'fast-check', why: '3 places parse numbers, JSON, dates, money or patterns' },
      },
    ],
  },
};
