import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('patterns', 'patterns', COMMAND_TEXTS.patterns.description);
