import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cliArgv } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { SHOP_FILES } from '../helpers/shop-fixture.js';
import { initialize, type StdioSession, startStdioSession, textOf } from './helpers/stdio-session.js';

const TASK = 'apply the loyalty discount for silver members';

/** A tools/call line written by hand: `__proto__` must reach the server as an own key of the JSON, as a client sends it. */
const callLine = (id: number, name: string, argumentsJson: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsJson}}}`;

describe('an MCP argument object carrying "__proto__" is refused like any unknown field', () => {
  let repo: TestRepo;
  let session: StdioSession;
  before(async () => {
    repo = createRepo(SHOP_FILES);
    session = startStdioSession([...cliArgv(), 'mcp', '--cwd', repo.dir]);
    await initialize(session);
  });
  after(async () => {
    session.kill();
    repo.cleanup();
  });

  const cases: { name: string; tool: string; args: string; where: RegExp }[] = [
    {
      name: 'at the top level',
      tool: 'agent_preflight',
      args: `{"task":${JSON.stringify(TASK)},"format":"json","__proto__":{"format":"markdown","command":"touch pwned"}}`,
      where: /unknown field "__proto__": this tool does not accept it; remove it\./,
    },
    {
      name: 'as the only field',
      tool: 'impact_map',
      args: '{"__proto__":{"base":"HEAD"}}',
      where: /unknown field "__proto__": this tool does not accept it; remove it\./,
    },
    {
      name: 'in a nested object',
      tool: 'agent_preflight',
      args: `{"task":${JSON.stringify(TASK)},"requirements":{"nonGoals":[],"__proto__":{"nonGoals":["x"]}}}`,
      where: /unknown field "__proto__": "requirements" does not accept it; remove it\./,
    },
    {
      name: 'in an object inside an array',
      tool: 'agent_session',
      args: `{"operation":"start","sessionId":"proto-1","task":${JSON.stringify(TASK)},"requirements":{"acceptanceCriteria":[{"id":"AC-1","text":"ten percent off","requiredProof":[],"__proto__":{}}]}}`,
      where: /unknown field "__proto__": "requirements\.acceptanceCriteria\[0\]" does not accept it; remove it\./,
    },
  ];
  let id = 0;
  for (const entry of cases) {
    it(`${entry.name}: isError naming the field, nothing run`, async () => {
      id += 1;
      session.send(callLine(id, entry.tool, entry.args));
      const reply = await session.reply(id, 120_000);
      assert.equal(reply.error, undefined, JSON.stringify(reply));
      assert.equal(reply.result?.isError, true, JSON.stringify(reply).slice(0, 600));
      const text = textOf(reply);
      assert.match(text, new RegExp(`^input/invalid: ${entry.tool}: `));
      assert.match(text, entry.where);
    });
  }

  it('no session was started by the refused call, and the server keeps answering', async () => {
    session.send(callLine(90, 'agent_session', '{"operation":"context","sessionId":"proto-1"}'));
    assert.match(textOf(await session.reply(90, 120_000)), /session\/not-found/);
    session.send(callLine(91, 'agent_preflight', `{"task":${JSON.stringify(`${TASK} __proto__`)},"format":"json"}`));
    const reply = await session.reply(91, 120_000);
    assert.equal(reply.result?.isError, undefined, textOf(reply).slice(0, 300));
    assert.equal(JSON.parse(textOf(reply)).kind, 'preflight-report');
  });
});
