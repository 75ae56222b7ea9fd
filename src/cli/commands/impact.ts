import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('impact', 'impact', COMMAND_TEXTS.impact.description);
