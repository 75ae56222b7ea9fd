import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { defineAnalysisCommand } from './analysis-command.js';

export default defineAnalysisCommand('audit-tests', 'audit-tests', COMMAND_TEXTS.auditTests.description);
