#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// Most of a command's code runs once per process: V8's default budget sends much of it to the optimising compiler,
// whose threads then compete with the parse children for the cores. Four times the budget (as the children have,
// src/worker/parse-worker.ts) optimises only what loops: on two cores a cold `ai` on the ~1k-file workspace corpus
// used ~200 ms less CPU and 60 ms less time, a warm one 90 ms less; the 17k-file tree and the MCP server's warm calls
// were unchanged (bench/RESULTS.md, 2026-11-28). Set before the bundle is loaded, hence the dynamic import.
setFlagsFromString('--interrupt-budget=262144');

// The bundle of dist/cli/main.js (scripts/bundle.mjs): the same code, loaded in a few files instead of ~300.
await import('../dist/bundle/main.js');
