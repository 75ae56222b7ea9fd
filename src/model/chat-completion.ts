/**
 * One call to an OpenAI-compatible chat-completions endpoint (`Env.requestChatCompletion`): the bring-your-own-key
 * investigation provider. The API key never passes through here: the client reads it from the environment variable
 * named by `apiKeyEnv`, sends it only as the Authorization header, and never returns, logs or writes it.
 */
export interface ChatCompletionSpec {
  /** The endpoint's base URL (`…/v1`); `/chat/completions` is appended unless it already ends so. */
  endpoint: string;
  /** Name of the environment variable that holds the API key; absent for a local server that needs none. */
  apiKeyEnv?: string;
  /** The JSON request body (model, messages, response_format …), sent as is. */
  body: Readonly<Record<string, unknown>>;
  /** Per attempt, connection to the end of the body. */
  timeoutMs: number;
  /** Attempts in all; a 429 or 5xx answer (or a reset connection) is retried with backoff, a timeout is not. */
  maxAttempts: number;
  /** First backoff; doubled each retry, a Retry-After answer is honoured up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Time for all attempts and backoffs together (an MCP call's deadline): an attempt gets at most what is left, and none starts with less than a second. */
  totalBudgetMs?: number;
  /** Bytes of response body read at most; a longer body is refused, not parsed. */
  maxResponseBytes: number;
}

export type ChatCompletionOutcome =
  | { ok: true; content: string; status: number; attempts: number; durationMs: number }
  | {
      ok: false;
      error: string;
      status?: number;
      attempts: number;
      durationMs: number;
      /** The endpoint answered 2xx, but with nothing usable (not JSON, not a chat answer, too large): a bad reply, not a failed call. */
      unusable?: true;
    };
