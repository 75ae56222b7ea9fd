import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand(
  'analyze',
  'analysis',
  'Deterministic merge-safety analysis of a git range: impact, proof, weak and missing tests, risk, decay, edge cases, context',
);
