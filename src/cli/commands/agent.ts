import { createBundleCommand } from './ai.js';

export default createBundleCommand(
  'agent',
  'generic',
  'Agent task bundle for the range with the portable generic profile (the lower-level equivalent of checker ai; runs nothing)',
);
