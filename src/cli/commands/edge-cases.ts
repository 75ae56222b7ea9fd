import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand(
  'edge-cases',
  'edge-cases',
  'Ranked edge-case scenarios for the change: the top eight plus the ranked overflow',
);
