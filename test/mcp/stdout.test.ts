import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createRepo } from '../helpers/git-repo.js';
import { cliArgv } from '../helpers/cli.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

interface Frame {
  jsonrpc: string;
  id?: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

function isFrame(value: unknown): value is Frame {
  return typeof value === 'object' && value !== null && 'jsonrpc' in value && value.jsonrpc === '2.0';
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

describe('checker mcp stdout (security H47, threat 17)', () => {
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
    'src/lib/money.ts': 'export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n',
    'src/lib/money.test.ts':
      "import { test } from 'node:test';\nimport { toCents } from './money.js';\ntest('toCents', () => { toCents(1); });\n",
    'src/evil.ts': `export const deep = ${'((((((((((\n'.repeat(300)}0${'))))))))))\n'.repeat(300)};\n`,
  });
  repo.write({
    'src/lib/money.ts':
      'export function toCents(amount: number): number {\n  console.log("cents");\n  return Math.round(amount * 100);\n}\n',
  });
  repo.commit('log');
  after(() => repo.cleanup());

  it('writes only JSON-RPC frames to stdout, survives bad frames and hostile calls, and exits when stdin closes', async () => {
    const child = spawn(process.execPath, [...cliArgv(), 'mcp', '--cwd', repo.dir], { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const send = (frame: unknown): void => {
      child.stdin.write(`${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n`);
    };
    const callTool = (id: number, name: string, args: unknown): void =>
      send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    callTool(3, 'analyze_pr', { base: 'HEAD~1', head: 'HEAD' });
    send('this is not json');
    send('{"jsonrpc":"2.0","id":');
    send({ hello: 'world' });
    callTool(4, 'analyze_pr', { cwd: '/', command: 'touch /tmp/pwned' });
    send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    callTool(6, 'agent_preflight', { task: 'y'.repeat(1024 * 1024) });
    send({ jsonrpc: '2.0', id: 7, method: 'no/such-method' });
    callTool(8, 'agent_session', { operation: 'start', sessionId: '../../x', task: 'escape' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    send({ jsonrpc: '2.0', id: 9, method: 'ping' });

    const timeout = setTimeout(() => child.kill('SIGKILL'), 120_000);
    await new Promise<void>((resolve) => {
      const check = (): void => {
        const lines = stdout.split('\n').slice(0, -1);
        // A line that is not JSON stops the wait; the frame assertions below then name it (thrown here, it was an uncaught error).
        const ids = lines.every(isJsonLine) ? lines.map((line): unknown => (JSON.parse(line) as { id?: unknown }).id) : undefined;
        if (ids === undefined || [1, 2, 3, 4, 5, 6, 7, 8, 9].every((id) => ids.includes(id))) resolve();
        else setTimeout(check, 50);
      };
      check();
    });
    child.stdin.end();
    const code = await exited;
    clearTimeout(timeout);

    assert.equal(code, 0, stderr);
    assert.equal(stdout.endsWith('\n'), true);
    const frames = stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line): Frame => {
        assert.ok(isJsonLine(line), `not JSON on stdout: ${line.slice(0, 200)}\nstderr:\n${stderr}`);
        const parsed: unknown = JSON.parse(line);
        assert.ok(isFrame(parsed), line.slice(0, 200));
        return parsed;
      });
    const answered = frames.filter((frame) => frame.id !== undefined);
    const byId = new Map(answered.map((frame) => [frame.id, frame]));
    assert.deepEqual([...byId.keys()].sort(), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(answered.length, 9);
    // The two lines that are not JSON and the object that is no JSON-RPC message cannot name an id: answered without one (JSON-RPC 2.0 section 5).
    const unnamed = frames.filter((frame) => frame.id === undefined);
    assert.deepEqual(
      unnamed.map((frame) => frame.error?.code),
      [-32700, -32700, -32600],
    );
    assert.equal((byId.get(1)?.result?.serverInfo as { name: string } | undefined)?.name, 'checker');
    assert.equal((byId.get(2)?.result?.tools as unknown[] | undefined)?.length, 17);
    const analysis = byId.get(3)?.result;
    assert.equal(analysis?.isError, undefined);
    const limitations =
      (analysis?.structuredContent as { limitations: { code: string; location?: { file: string } }[] } | undefined)?.limitations ?? [];
    assert.deepEqual(
      limitations.filter((item) => item.location?.file === 'src/evil.ts').map((item) => item.code),
      ['scan/nesting-too-deep'],
    );
    for (const id of [4, 6, 8]) assert.equal(byId.get(id)?.result?.isError, true, String(id));
    assert.equal(byId.get(7)?.error?.code, -32601);
    assert.deepEqual(byId.get(5)?.result, {});
    assert.deepEqual(byId.get(9)?.result, {});
    assert.match(stderr, /checker mcp: serving .* over stdio \(tool calls time out after 120 s\)\n/);
    assert.equal(existsSync('/tmp/pwned'), false);
  });
});
