import { defineAnalysisTool } from './analysis-tool.js';

export default defineAnalysisTool('redteam_report', 'redteam');
