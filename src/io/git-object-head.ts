import { once } from 'node:events';
import { closeSync, readSync } from 'node:fs';
import { createInflate } from 'node:zlib';
import { openRegularFileSync } from './guarded-read.js';
import { type GitObjectHead, type GitObjectType, type ObjectLocation, type ObjectReader, readPackEntryHeader } from './git-objects.js';

/**
 * The start of an object when the direct read (ObjectReader.readHead) cannot give it within bounds: a pack delta whose
 * first bytes copy from far into its base, as `git gc` makes of commits with long, alike messages (a pasted log copies
 * its lines from the end of another commit's). The bytes wanted are followed down the delta chain as ranges, each object
 * of the chain inflated as a stream and let go chunk by chunk, so memory stays the ranges (the limit at most, at every
 * level) while the time grows with the bytes inflated, at most STREAM_BUDGET.
 */
const STREAM_BUDGET = 1024 * 1024 * 1024;
const MAX_DEPTH = 1000;
const CHUNK_BYTES = 256 * 1024;
/** `<type> <size>\0` in front of a loose object. */
const LOOSE_HEADER_BYTES = 32;

/** `bytes` is to hold the object's bytes from `start` on (a view: filling it fills what asked). */
interface Need {
  start: number;
  bytes: Buffer;
}

interface StreamState {
  budget: number;
}

/** Starts read by streaming, kept per reader: a run asks for the same commit (HEAD, a base) several times. */
const streamed = new WeakMap<ObjectReader, Map<string, GitObjectHead>>();
const MAX_STREAMED_KEPT = 16;

/**
 * The object's type, size and first bytes (`limit` at most, all of it when it is no longer), inflating little more
 * than that: the direct read's start when it is whole or `isEnough`, else the whole `limit` streamed down its delta
 * chain. `oversized` when even that fails (past STREAM_BUDGET, damaged), undefined when the object is not there for
 * this reader.
 */
export async function readObjectHead(
  reader: ObjectReader,
  oid: string,
  limit: number,
  isEnough: (head: GitObjectHead) => boolean,
): Promise<GitObjectHead | 'oversized' | undefined> {
  const direct = reader.readHead(oid, limit);
  if (direct === undefined) return undefined;
  if (direct !== 'oversized' && (direct.bytes.length >= Math.min(direct.size, limit) || isEnough(direct))) return direct;
  const kept = streamed.get(reader) ?? new Map<string, GitObjectHead>();
  streamed.set(reader, kept);
  const key = `${oid}:${limit}`;
  const known = kept.get(key);
  if (known !== undefined) return known;
  const location = reader.locate(oid);
  if (location === undefined) return 'oversized';
  const wanted: Need = { start: 0, bytes: Buffer.alloc(limit) };
  const found = await fillNeeds(reader, location, [wanted], { budget: STREAM_BUDGET }, 0);
  if (found === undefined) return 'oversized';
  const head = { type: found.type, size: found.size, bytes: wanted.bytes.subarray(0, Math.min(found.size, limit)) };
  if (kept.size >= MAX_STREAMED_KEPT) kept.delete(kept.keys().next().value ?? '');
  kept.set(key, head);
  return head;
}

type ObjectFound = { type: GitObjectType; size: number };

/**
 * Fills each need from the object at `location`: a whole object by inflating it until the last need is passed, a delta
 * by reading its instructions as far and asking its base for the bytes its copies take. The object's type and size, or
 * undefined when it cannot be read (damaged, past the budget, a copy beyond its base). Needs past the object's end are
 * cut to it (only the first call's can be: a delta's copies stay within the base it names).
 */
async function fillNeeds(
  reader: ObjectReader,
  location: ObjectLocation,
  needs: Need[],
  state: StreamState,
  depth: number,
): Promise<ObjectFound | undefined> {
  if (depth > MAX_DEPTH) return undefined;
  const step = await readStep(location, needs, state);
  if (step === undefined || 'type' in step) return step;
  const base: ObjectLocation | undefined = step.baseOid === undefined ? step.base : reader.locate(step.baseOid);
  if (base === undefined) return undefined;
  const found = await fillNeeds(reader, base, step.baseNeeds, state, depth + 1);
  if (found === undefined || found.size !== step.baseSize) return undefined;
  return { type: found.type, size: step.resultSize };
}

type DeltaStep = { base: ObjectLocation; baseOid?: string; baseNeeds: Need[]; baseSize: number; resultSize: number };

/** One object of the chain, its file open only while it is read: the object found, or its delta's needs of its base. */
async function readStep(location: ObjectLocation, needs: Need[], state: StreamState): Promise<ObjectFound | DeltaStep | undefined> {
  const opened = openRegularFileSync(location.kind === 'loose' ? location.path : location.packPath);
  if (opened === undefined) return undefined;
  try {
    if (location.kind === 'loose') return await fillFromLoose(opened.descriptor, needs, state);
    const header = readPackEntryHeader(opened.descriptor, location.offset);
    if (header === undefined) return undefined;
    const { kind, size } = header;
    if (kind === 'ofs' || kind === 'ref') {
      const delta = await readDeltaNeeds(opened.descriptor, header.dataStart, needs, state);
      if (delta === undefined) return undefined;
      const base: ObjectLocation = { kind: 'packed', packPath: location.packPath, offset: header.baseOffset };
      return kind === 'ofs' ? { base, ...delta } : { base, baseOid: header.baseOid, ...delta };
    }
    const sweep = createSweep(needs, size);
    if (sweep.isDone()) return { type: kind, size };
    let at = 0;
    await inflateStream(opened.descriptor, header.dataStart, state, (chunk) => {
      sweep.visit(at, at + chunk.length, (need, from, to) => chunk.copy(need.bytes, from - need.start, from - at, to - at));
      at += chunk.length;
      return !sweep.isDone();
    });
    return sweep.isDone() ? { type: kind, size } : undefined;
  } finally {
    closeSync(opened.descriptor);
  }
}

async function fillFromLoose(descriptor: number, needs: Need[], state: StreamState): Promise<ObjectFound | undefined> {
  let header: (ObjectFound & { sweep: Sweep }) | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let at = 0;
  let isBroken = false;
  await inflateStream(descriptor, 0, state, (chunk) => {
    let data = chunk;
    if (header === undefined) {
      pending = Buffer.concat([pending, chunk]);
      const nul = pending.subarray(0, LOOSE_HEADER_BYTES).indexOf(0);
      const match = nul === -1 ? null : /^(commit|tree|blob|tag) (\d+)$/.exec(pending.toString('latin1', 0, nul));
      if (match === null) {
        isBroken = nul !== -1 || pending.length >= LOOSE_HEADER_BYTES;
        return !isBroken;
      }
      const size = Number(match[2]);
      header = { type: match[1] as GitObjectType, size, sweep: createSweep(needs, size) };
      data = pending.subarray(nul + 1);
    }
    const { sweep } = header;
    sweep.visit(at, at + data.length, (need, from, to) => data.copy(need.bytes, from - need.start, from - at, to - at));
    at += data.length;
    return !sweep.isDone();
  });
  if (isBroken || header === undefined || !header.sweep.isDone()) return undefined;
  return { type: header.type, size: header.size };
}

/**
 * Reads a delta's instructions from the stream until every need is passed: an insert fills what it covers, a copy
 * becomes a need of the base (a view of the same bytes).
 */
async function readDeltaNeeds(
  descriptor: number,
  dataStart: number,
  needs: Need[],
  state: StreamState,
): Promise<{ baseSize: number; resultSize: number; baseNeeds: Need[] } | undefined> {
  const baseNeeds: Need[] = [];
  let pending: Buffer = Buffer.alloc(0);
  let sizes: { baseSize: number; resultSize: number; sweep: Sweep } | undefined;
  let position = 0;
  let isBroken = false;
  await inflateStream(descriptor, dataStart, state, (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let cursor = 0;
    if (sizes === undefined) {
      const base = readVarint(pending, 0);
      const result = base === undefined ? undefined : readVarint(pending, base.next);
      if (base === undefined || result === undefined) return true;
      sizes = { baseSize: base.value, resultSize: result.value, sweep: createSweep(needs, result.value) };
      cursor = result.next;
    }
    const { baseSize, resultSize, sweep } = sizes;
    while (cursor < pending.length && !sweep.isDone()) {
      const op = pending[cursor] ?? 0;
      if ((op & 0x80) !== 0) {
        let length = 1;
        for (let bit = 0; bit < 7; bit += 1) if ((op & (1 << bit)) !== 0) length += 1;
        if (cursor + length > pending.length) break;
        let at = cursor + 1;
        let copyOffset = 0;
        let copySize = 0;
        for (let bit = 0; bit < 4; bit += 1) if ((op & (1 << bit)) !== 0) copyOffset += (pending[at++] ?? 0) * 2 ** (8 * bit);
        for (let bit = 0; bit < 3; bit += 1) if ((op & (1 << (4 + bit))) !== 0) copySize += (pending[at++] ?? 0) * 2 ** (8 * bit);
        if (copySize === 0) copySize = 0x10000;
        if (copyOffset + copySize > baseSize || position + copySize > resultSize) {
          isBroken = true;
          return false;
        }
        const from = position;
        sweep.visit(from, from + copySize, (need, start, end) =>
          baseNeeds.push({ start: copyOffset + (start - from), bytes: need.bytes.subarray(start - need.start, end - need.start) }),
        );
        position += copySize;
        cursor += length;
      } else if (op !== 0) {
        if (cursor + 1 + op > pending.length) break;
        if (position + op > resultSize) {
          isBroken = true;
          return false;
        }
        const literal = pending.subarray(cursor + 1, cursor + 1 + op);
        const from = position;
        sweep.visit(from, from + op, (need, start, end) => literal.copy(need.bytes, start - need.start, start - from, end - from));
        position += op;
        cursor += 1 + op;
      } else {
        isBroken = true;
        return false;
      }
    }
    // What is left is one instruction cut by the chunk's end, a few bytes: copied so the chunk can go.
    pending = Buffer.from(pending.subarray(cursor));
    return !sweep.isDone();
  });
  if (isBroken || sizes === undefined || !sizes.sweep.isDone()) return undefined;
  return { baseSize: sizes.baseSize, resultSize: sizes.resultSize, baseNeeds };
}

function readVarint(bytes: Buffer, start: number): { value: number; next: number } | undefined {
  let value = 0;
  let shift = 0;
  for (let cursor = start; cursor < bytes.length && shift < 53; cursor += 1) {
    const byte = bytes[cursor] ?? 0;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: cursor + 1 };
  }
  return undefined;
}

interface Sweep {
  /** Calls `fill` with the part of each need that the object's bytes [from, to) cover; spans come in order. */
  visit(from: number, to: number, fill: (need: Need, start: number, end: number) => void): void;
  /** Every need's end is passed. */
  isDone(): boolean;
}

/** Needs met by consecutive spans of an object of `size` bytes; a need past its end is cut to it. */
function createSweep(needs: readonly Need[], size: number): Sweep {
  const sorted = needs
    .filter((need) => need.start < size)
    .map((need) =>
      need.start + need.bytes.length <= size ? need : { start: need.start, bytes: need.bytes.subarray(0, size - need.start) },
    )
    .sort((left, right) => left.start - right.start);
  const maxEnd = sorted.reduce((end, need) => Math.max(end, need.start + need.bytes.length), 0);
  let next = 0;
  let active: Need[] = [];
  let passed = 0;
  return {
    isDone: () => passed >= maxEnd,
    visit(from, to, fill) {
      for (; next < sorted.length && (sorted[next]?.start ?? to) < to; next += 1) active.push(sorted[next] as Need);
      for (const need of active) {
        const start = Math.max(need.start, from);
        const end = Math.min(need.start + need.bytes.length, to);
        if (start < end) fill(need, start, end);
      }
      active = active.filter((need) => need.start + need.bytes.length > to);
      passed = to;
    },
  };
}

/**
 * Inflates the zlib stream starting at `position` of an open file, handing each chunk of output to `take` until it
 * returns false, the stream ends or fails, or the budget is spent. Input is read a chunk at a time, the next only once
 * zlib has taken the last: a pack's trailing bytes after the stream are ignored by zlib.
 */
async function inflateStream(descriptor: number, position: number, state: StreamState, take: (chunk: Buffer) => boolean): Promise<void> {
  const inflater = createInflate({ chunkSize: CHUNK_BYTES });
  let isStopped = false;
  let isEnded = false;
  const finished = new Promise<void>((resolve) => {
    inflater.on('data', (chunk: Buffer) => {
      if (isStopped) return;
      state.budget -= chunk.length;
      if (state.budget < 0 || !take(chunk)) {
        isStopped = true;
        inflater.destroy();
        resolve();
      }
    });
    inflater.on('end', () => {
      isEnded = true;
      resolve();
    });
    inflater.on('error', () => {
      isStopped = true;
      resolve();
    });
    inflater.on('close', () => resolve());
  });
  let offset = position;
  while (!isStopped && !isEnded) {
    const input = Buffer.allocUnsafe(CHUNK_BYTES);
    const count = readSync(descriptor, input, 0, input.length, offset);
    if (count === 0) {
      inflater.end();
      break;
    }
    offset += count;
    if (!inflater.write(input.subarray(0, count))) await Promise.race([once(inflater, 'drain').catch(() => undefined), finished]);
  }
  await finished;
}
