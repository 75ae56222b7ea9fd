/** Biome-style diagnostic: a hierarchical code, what went wrong, and how to fix it. */
export type Severity = 'error' | 'warn' | 'info';

export interface Location {
  file: string;
  line?: number;
  col?: number;
}

export interface Diagnostic {
  /** Hierarchical code such as `config/invalid`, `git/ref-not-found`, `parse/crash`. */
  code: string;
  severity: Severity;
  message: string;
  hint?: string;
  location?: Location;
  evidenceIds?: string[];
}

/** Thrown for expected failures that end a command; adapters map it to exit code 2 or `isError`. */
export class CheckerError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly location: Location | undefined;

  constructor(code: string, message: string, options: { hint?: string; location?: Location; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CheckerError';
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
  }

  toDiagnostic(): Diagnostic {
    const diagnostic: Diagnostic = { code: this.code, severity: 'error', message: this.message };
    if (this.hint !== undefined) diagnostic.hint = this.hint;
    if (this.location !== undefined) diagnostic.location = this.location;
    return diagnostic;
  }
}

export function isCheckerError(value: unknown): value is CheckerError {
  return value instanceof CheckerError;
}
