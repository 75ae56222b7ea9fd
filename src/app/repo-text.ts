import type { Env } from '../model/env.js';

/**
 * A repository file's text through `env.files` (contained, regular, size-capped, valid UTF-8), or undefined when it
 * is missing or refused; callers that must say why read `env.files.readText` themselves.
 */
export async function readRepoText(env: Env, path: string, maxBytes: number): Promise<string | undefined> {
  const read = await env.files.readText(path, { maxBytes });
  return read.ok ? read.text : undefined;
}
