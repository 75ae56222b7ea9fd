import { defineAnalysisTool } from './analysis-tool.js';

export default defineAnalysisTool('audit_tests', 'audit-tests');
