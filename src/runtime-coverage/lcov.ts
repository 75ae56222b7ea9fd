import { clipRedacted } from '../text/clip.js';
import { addProblem, createProblemLog, type ProblemLog } from './problems.js';

const LCOV_IGNORED_PREFIXES = ['TN:', 'FN:', 'FNDA:', 'FNF:', 'FNH:', 'FNL:', 'FNA:', 'LF:', 'LH:', 'BRDA:', 'BRF:', 'BRH:', 'VER:'];
const LCOV_IGNORED_FIRST = new Set(LCOV_IGNORED_PREFIXES.map((prefix) => prefix.charCodeAt(0)));

export interface LcovResult {
  /** Line hits per `SF` path as written in the tracefile, records of one path summed. */
  records: Map<string, Map<number, number>>;
  problems: ProblemLog;
}

/** An lcov tracefile parsed chunk by chunk (a report may be tens of megabytes); only `SF`, `DA` and `end_of_record` carry what we keep. */
export interface LcovParser {
  write(chunk: string): void;
  end(): LcovResult;
}

function parseNonNegativeInteger(text: string, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

function isIgnoredLcovLine(line: string): boolean {
  if (!LCOV_IGNORED_FIRST.has(line.charCodeAt(0))) return false;
  for (const prefix of LCOV_IGNORED_PREFIXES) if (line.startsWith(prefix)) return true;
  return false;
}

export function createLcovParser(): LcovParser {
  const records = new Map<string, Map<number, number>>();
  const problems = createProblemLog();
  let current: Map<number, number> | undefined;
  let currentLine = 0;
  let lineNumber = 0;
  let carry = '';
  const report = (message: string): void => addProblem(problems, { message, line: lineNumber });
  const handleLine = (text: string, start: number, end: number): void => {
    lineNumber += 1;
    if (end === start) return;
    // "DA:" tested by char code: DA lines are nearly all of a tracefile.
    if (text.charCodeAt(start) === 68 && text.charCodeAt(start + 1) === 65 && text.charCodeAt(start + 2) === 58) {
      const firstComma = text.indexOf(',', start + 3);
      const inLine = firstComma >= 0 && firstComma < end;
      const secondComma = inLine ? text.indexOf(',', firstComma + 1) : -1;
      const hitsEnd = secondComma >= 0 && secondComma < end ? secondComma : end;
      const lineNo = inLine ? parseNonNegativeInteger(text, start + 3, firstComma) : -1;
      const hits = inLine ? parseNonNegativeInteger(text, firstComma + 1, hitsEnd) : -1;
      if (current === undefined) report('DA line outside an SF record');
      else if (lineNo < 1 || hits < 0) report(`invalid DA entry ${JSON.stringify(text.slice(start, Math.min(end, start + 80)))}`);
      else current.set(lineNo, (current.get(lineNo) ?? 0) + hits);
      return;
    }
    const line = text.slice(start, end);
    if (line.startsWith('SF:')) {
      if (current !== undefined) report('SF record starts before the previous record ended (missing end_of_record)');
      const raw = line.slice(3);
      current = records.get(raw);
      if (current === undefined) {
        current = new Map();
        records.set(raw, current);
      }
      currentLine = lineNumber;
      return;
    }
    if (line === 'end_of_record') {
      if (current === undefined) report('end_of_record without an SF record');
      current = undefined;
      return;
    }
    if (isIgnoredLcovLine(line)) return;
    report(`unrecognised lcov line ${JSON.stringify(clipRedacted(line, 80))}`);
  };
  return {
    write(chunk) {
      const text = carry + chunk;
      let start = 0;
      for (;;) {
        const newline = text.indexOf('\n', start);
        if (newline < 0) break;
        const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        handleLine(text, start, end);
        start = newline + 1;
      }
      carry = text.slice(start);
    },
    end() {
      if (carry.length > 0) handleLine(carry, 0, carry.endsWith('\r') ? carry.length - 1 : carry.length);
      carry = '';
      if (current !== undefined) {
        lineNumber = currentLine;
        report('record is missing end_of_record at the end of the file; its data was kept');
      }
      return { records, problems };
    },
  };
}

/** Parses a whole lcov tracefile held in memory. */
export function parseLcov(text: string): LcovResult {
  const parser = createLcovParser();
  parser.write(text);
  return parser.end();
}
