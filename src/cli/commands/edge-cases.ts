import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('edge-cases', 'edge-cases', COMMAND_TEXTS.edgeCases.description);
