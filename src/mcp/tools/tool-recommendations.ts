import { defineAnalysisTool } from './analysis-tool.js';

export default defineAnalysisTool('tool_recommendations', 'tools');
