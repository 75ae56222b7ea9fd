import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('patterns', 'patterns', 'Pattern-pack matches in the changed lines');
