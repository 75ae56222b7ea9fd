import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand(
  'audit-tests',
  'audit-tests',
  'Changed-path proof, runtime test evidence, weak and missing tests, and the checks to run',
);
