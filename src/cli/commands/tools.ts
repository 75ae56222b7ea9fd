import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('tools', 'tools', COMMAND_TEXTS.tools.description);
