import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('analyze', 'analysis', COMMAND_TEXTS.analysis.description);
