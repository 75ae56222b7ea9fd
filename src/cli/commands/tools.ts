import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand(
  'tools',
  'tools',
  'Local open-source tools that fit the shape of this repository (installs nothing, runs nothing)',
);
