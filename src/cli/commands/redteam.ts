import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('redteam', 'redteam', COMMAND_TEXTS.redteam.description);
