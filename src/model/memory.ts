import { z } from 'zod';
import type { MemoryEntry, MemoryKind } from './graph.js';

/**
 * A memory file (`.checker/memory/*.yml`, `*.yaml`, `*.json`, see docs/memory-and-docs.md). `memoryFileSchema`
 * is the source of schemas/memory.schema.json (`npm run schemas`); src/repo-text/memory-file.ts validates each file and
 * each entry against that file, and turns a valid entry into a graph `MemoryEntry`.
 */
const MEMORY_KINDS = ['invariant', 'architecture', 'regression', 'note'] as const;

const memoryEntryInput = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
      .describe('Unique within the file; the evidence id is memory:<file>#<id>.'),
    kind: z.enum(MEMORY_KINDS),
    title: z.string().min(1).max(200).optional(),
    text: z.string().min(1).max(8192),
    paths: z.array(z.string().min(1).max(500)).max(100).optional().describe('Globs (picomatch) of repository paths the entry is about.'),
    terms: z
      .array(z.string().min(1).max(64))
      .max(50)
      .optional()
      .describe('Words that match task descriptions to this entry; derived from the text when absent.'),
  })
  .meta({ id: 'entry' });

export const memoryFileSchema = z
  .strictObject({
    schemaVersion: z.literal(1).optional().describe('Optional; 1 is the only version.'),
    entries: z.array(memoryEntryInput).max(1000),
  })
  .describe('Invariants, architecture notes, regressions and notes that a repository keeps for checker and for coding agents.');

/** One entry as written in a memory file, before it gets its path and lower-cased terms. */
export type MemoryEntryInput = z.infer<typeof memoryEntryInput>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<MemoryKind, MemoryEntryInput['kind']>;
true satisfies Same<Omit<MemoryEntry, 'path'>, Omit<MemoryEntryInput, 'paths' | 'terms'> & Pick<MemoryEntry, 'paths' | 'terms'>>;
