import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface Frame {
  jsonrpc: string;
  id?: string | number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A server process spoken to in raw JSON-RPC lines, recording every stdout line in arrival order. */
export interface StdioSession {
  send(frame: unknown): void;
  /** Resolves with the frame answering `id`; rejects (with the server's stderr) after `timeoutMs`. */
  reply(id: string | number, timeoutMs?: number): Promise<Frame>;
  /** Every frame read so far, in arrival order. */
  readonly frames: Frame[];
  /** stdout lines that were not JSON-RPC frames (must stay empty). */
  readonly strays: string[];
  stderr(): string;
  /** Closes stdin and resolves with the exit code. */
  end(): Promise<number | null>;
  kill(): void;
  /** Sends `signal` to the server process. */
  signal(signal: NodeJS.Signals): void;
  /** Settles when the server process has exited: its exit code or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node ...nodeArgs` from the project root (`cliArgv()` for the CLI, built or from sources), with `env` added to this process's. */
export function startStdioSession(nodeArgs: string[], env: NodeJS.ProcessEnv = {}): StdioSession {
  const child = spawn(process.execPath, nodeArgs, { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const frames: Frame[] = [];
  const strays: string[] = [];
  const waiters = new Map<string | number, (frame: Frame) => void>();
  let buffered = '';
  let stderr = '';
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const exited = ended.then(({ code }) => code);
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let index = buffered.indexOf('\n'); index !== -1; index = buffered.indexOf('\n')) {
      const line = buffered.slice(0, index);
      buffered = buffered.slice(index + 1);
      const frame = toFrame(line);
      if (frame === undefined) {
        strays.push(line);
        continue;
      }
      frames.push(frame);
      if (frame.id !== undefined) waiters.get(frame.id)?.(frame);
    }
  });
  return {
    send(frame) {
      child.stdin.write(`${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n`);
    },
    reply(id, timeoutMs = 60_000) {
      const known = frames.find((frame) => frame.id === id);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no reply to ${JSON.stringify(id)} within ${timeoutMs} ms; stderr:\n${stderr}`)),
          timeoutMs,
        );
        waiters.set(id, (frame) => {
          clearTimeout(timer);
          waiters.delete(id);
          resolve(frame);
        });
      });
    },
    frames,
    strays,
    stderr: () => stderr,
    end() {
      child.stdin.end();
      return exited;
    },
    kill() {
      child.kill('SIGKILL');
    },
    signal(signal) {
      child.kill(signal);
    },
    exited: ended,
  };
}

/** Sends initialize and notifications/initialized, and waits for the server's answer. */
export async function initialize(session: StdioSession): Promise<Frame> {
  session.send({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '0' } },
  });
  session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return session.reply('init');
}

/** The text of a tools/call result's first content item. */
export function textOf(frame: Frame): string {
  const content = frame.result?.content;
  const first: unknown = Array.isArray(content) ? content[0] : undefined;
  return typeof first === 'object' && first !== null && 'text' in first && typeof first.text === 'string' ? first.text : '';
}

function toFrame(line: string): Frame | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || !('jsonrpc' in value) || value.jsonrpc !== '2.0') return undefined;
    const frame: Frame = { jsonrpc: '2.0' };
    if ('id' in value && (typeof value.id === 'string' || typeof value.id === 'number')) frame.id = value.id;
    if ('result' in value && typeof value.result === 'object' && value.result !== null) frame.result = { ...value.result };
    if ('error' in value && typeof value.error === 'object' && value.error !== null && 'code' in value.error && 'message' in value.error) {
      frame.error = { code: Number(value.error.code), message: String(value.error.message) };
    }
    return frame;
  } catch {
    return undefined;
  }
}
