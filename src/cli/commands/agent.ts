import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { createBundleCommand } from './ai.js';

export default createBundleCommand('agent', 'generic', COMMAND_TEXTS.agentBundle.description);
