import { defineAnalysisTool } from './analysis-tool.js';

export default defineAnalysisTool('impact_map', 'impact');
