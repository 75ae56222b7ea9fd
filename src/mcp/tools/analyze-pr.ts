import { defineAnalysisTool } from './analysis-tool.js';

export default defineAnalysisTool('analyze_pr', 'analysis');
