import { defineAnalysisTool } from './analysis-tool.js';

export default defineAnalysisTool('suggest_edge_cases', 'edge-cases');
