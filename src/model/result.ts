import type { Diagnostic } from './diagnostic.js';

export type Result<T> = { ok: true; value: T; diagnostics: Diagnostic[] } | { ok: false; error: Diagnostic; diagnostics: Diagnostic[] };

export function ok<T>(value: T, diagnostics: Diagnostic[] = []): Result<T> {
  return { ok: true, value, diagnostics };
}

export function fail<T>(error: Diagnostic, diagnostics: Diagnostic[] = []): Result<T> {
  return { ok: false, error, diagnostics };
}
