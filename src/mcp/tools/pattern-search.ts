import { defineAnalysisTool } from './analysis-tool.js';

export default defineAnalysisTool('pattern_search', 'patterns');
