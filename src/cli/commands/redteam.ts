import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand(
  'redteam',
  'redteam',
  'Deterministic merge-safety report: proof, weak tests, edge cases, checks not run, memory, fix tasks, safety flags',
);
