import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand(
  'impact',
  'impact',
  'Changed files, impacted files and areas, route/API impacts and symbol-level import impacts',
);
