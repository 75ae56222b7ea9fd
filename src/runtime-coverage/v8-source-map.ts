import { eachMapping, sourceContentFor, TraceMap } from '@jridgewell/trace-mapping';
import { isRecord } from '../text/is-record.js';
import { countInnermost, type V8Range } from './v8.js';

/**
 * A script's entry in the `source-map-cache` of a NODE_V8_COVERAGE file: the generated code's line lengths (V8's
 * offsets count in that code) and the source map Node read from it (tsx, ts-node, swc-node, a compiled `dist/` with
 * `.map` files).
 */
export interface CachedSourceMap {
  lineLengths: number[];
  map: TraceMap;
}

/** The lines of one original source the generated code maps to, with V8's count at each line's first mapped code. */
export interface MappedSource {
  /** The source as the map resolves it against the script URL (`file:///…/src/cart.ts`). */
  source: string;
  /** The text the map carries for it (`sourcesContent`), when it does. */
  content: string | undefined;
  lines: Map<number, number>;
}

/** Reads a `source-map-cache` entry; undefined when it is not one (no line lengths, no usable map). */
export function readCachedSourceMap(value: unknown, scriptUrl: string): CachedSourceMap | undefined {
  if (!isRecord(value)) return undefined;
  const { lineLengths, data } = value;
  if (!Array.isArray(lineLengths) || !lineLengths.every((length) => Number.isInteger(length) && length >= 0)) return undefined;
  if (!isRecord(data)) return undefined;
  try {
    return { lineLengths: lineLengths as number[], map: new TraceMap(data as ConstructorParameters<typeof TraceMap>[0], scriptUrl) };
  } catch {
    return undefined;
  }
}

/**
 * Line hits of the original sources from V8 block coverage of generated code: an original line counts as V8 counted
 * the innermost range holding the generated code of its first mapped column (the same rule as computeV8LineHits for
 * untranspiled files). Lines with no mapping (types, interfaces, comments, blank lines) are not instrumented and stay
 * out, so a type-only edit is never "proven" or "unproven" by a run. Undefined when the ranges do not fit the
 * generated code the line lengths describe.
 */
export function computeMappedLineHits(ranges: readonly V8Range[], cached: CachedSourceMap): MappedSource[] | undefined {
  const starts: number[] = [];
  let length = 0;
  for (const [index, lineLength] of cached.lineLengths.entries()) {
    starts.push(length);
    length += lineLength + (index < cached.lineLengths.length - 1 ? 1 : 0);
  }
  if (ranges.some((range) => range.end > length + 1)) return undefined;

  // Per source and original line, the mapping at the smallest original column: the line's first code.
  const firsts = new Map<string, Map<number, { column: number; offset: number }>>();
  let outside = false;
  eachMapping(cached.map, (mapping) => {
    if (mapping.source === null || mapping.originalLine === null) return;
    const start = starts[mapping.generatedLine - 1];
    if (start === undefined) {
      outside = true;
      return;
    }
    const offset = start + mapping.generatedColumn;
    let lines = firsts.get(mapping.source);
    if (lines === undefined) {
      lines = new Map();
      firsts.set(mapping.source, lines);
    }
    const known = lines.get(mapping.originalLine);
    if (
      known === undefined ||
      mapping.originalColumn < known.column ||
      (mapping.originalColumn === known.column && offset < known.offset)
    ) {
      lines.set(mapping.originalLine, { column: mapping.originalColumn, offset });
    }
  });
  if (outside) return undefined;

  const queries = [...firsts.entries()].flatMap(([source, lines]) =>
    [...lines.entries()].map(([line, first]) => ({ source, line, offset: first.offset })),
  );
  queries.sort((a, b) => a.offset - b.offset);
  const counts = countInnermost(
    ranges,
    queries.map((query) => query.offset),
  );
  const bySource = new Map<string, Map<number, number>>();
  for (const [index, query] of queries.entries()) {
    const count = counts[index];
    if (count === undefined) continue;
    const lines = bySource.get(query.source) ?? new Map<number, number>();
    lines.set(query.line, count);
    bySource.set(query.source, lines);
  }
  return [...bySource.entries()].map(([source, lines]) => ({
    source,
    content: sourceContentFor(cached.map, source) ?? undefined,
    lines: new Map([...lines.entries()].sort(([a], [b]) => a - b)),
  }));
}
