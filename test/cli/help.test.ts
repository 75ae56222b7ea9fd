import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMAND_TEXTS } from '../../src/app/command-texts.js';
import { commands } from '../../src/cli/registry.js';
import { renderCommandHelp, toTerminalText } from '../../src/cli/usage.js';
import { TOOL_TEXTS } from '../../src/mcp/texts.js';
import { runCli, runCliAsync } from '../helpers/cli.js';

const ESCAPE = '\u001b';
const GROUPS = ['session', 'rules'];

describe('checker <command> --help', () => {
  for (const entry of commands) {
    const path = entry.path.join(' ');
    it(`checker ${path} --help renders its shared title, description and options`, async () => {
      const help = toTerminalText(await renderCommandHelp(entry, await entry.load()), false, {});
      assert.ok(help.startsWith(`checker ${path}: ${entry.text.title}`), help.slice(0, 200));
      assert.match(help, new RegExp(`USAGE checker ${path} `));
      assert.match(help, /--cwd=<path>/);
      assert.equal(help.includes(ESCAPE), false);
      assert.equal(/[ \t]\n/.test(help), false, 'trailing spaces');
    });
  }

  it('the real CLI prints a command help without colours when piped', () => {
    for (const path of [['analyze'], ['session', 'checkpoint'], ['graph']]) {
      const result = runCli([...path, '--help']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, '');
      assert.ok(result.stdout.startsWith(`checker ${path.join(' ')}: `), result.stdout.slice(0, 200));
      assert.match(result.stdout, /OPTIONS\n\n/);
      assert.equal(result.stdout.includes(ESCAPE), false, 'ANSI escape in piped help');
    }
  });

  for (const group of GROUPS) {
    it(`checker ${group} --help lists the group's commands and exits 0`, async () => {
      const result = await runCliAsync([group, '--help']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.includes(ESCAPE), false);
      const children = commands.filter((entry) => entry.path[0] === group);
      assert.ok(children.length >= 2);
      for (const child of children) assert.match(result.stdout, new RegExp(`checker ${child.path.join(' ')} +${child.text.title}`));
    });
  }

  it('ai --help and agent --help list their preflight subcommand', async () => {
    for (const group of ['ai', 'agent']) {
      const result = await runCliAsync([group, '--help']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`COMMANDS\\n\\n {2}checker ${group} preflight +${COMMAND_TEXTS.preflight.title}`));
    }
  });

  it('checker help <command> is checker <command> --help', async () => {
    for (const path of [['session'], ['session', 'start'], ['rules', 'validate'], ['analyze']]) {
      const viaHelp = await runCliAsync(['help', ...path]);
      assert.equal(viaHelp.code, 0, viaHelp.stderr);
      assert.equal(viaHelp.stdout, (await runCliAsync([...path, '--help'])).stdout);
    }
    const top = await runCliAsync(['help']);
    assert.equal(top.code, 0);
    for (const entry of commands) assert.ok(top.stdout.includes(`checker ${entry.path.join(' ')}`));
    assert.equal(top.stdout.includes(ESCAPE), false);
  });

  it('a group without a command, or with an unknown one, is a usage error (exit 2) that shows the group', async () => {
    const alone = await runCliAsync(['session']);
    assert.equal(alone.code, 2);
    assert.equal(alone.stdout, '');
    assert.match(alone.stderr, /^checker: usage\/missing-command: checker session needs a command: start, context, checkpoint, finish\n/);
    const typo = await runCliAsync(['rules', 'lst']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^checker: usage\/unknown-command: unknown command "rules lst"\n {2}hint: run "checker rules --help"/);
    assert.match(typo.stderr, /checker rules validate/);
    const typoHelp = await runCliAsync(['session', 'strt', '--help']);
    assert.equal(typoHelp.code, 2);
    assert.match(typoHelp.stderr, /usage\/unknown-command: unknown command "session strt"/);
  });
});

describe('colours', () => {
  const coloured = `${ESCAPE}[4m${ESCAPE}[1mUSAGE${ESCAPE}[22m${ESCAPE}[24m ${ESCAPE}[36mchecker graph${ESCAPE}[39m`;

  it('a terminal keeps them; a pipe or NO_COLOR gets plain text', async () => {
    assert.equal(toTerminalText(coloured, true, {}), coloured);
    assert.equal(toTerminalText(coloured, true, { NO_COLOR: '' }), coloured);
    assert.equal(toTerminalText(coloured, false, {}), 'USAGE checker graph');
    assert.equal(toTerminalText(coloured, undefined, {}), 'USAGE checker graph');
    assert.equal(toTerminalText(coloured, true, { NO_COLOR: '1' }), 'USAGE checker graph');
  });
});

describe('missing required flags', () => {
  const cases: { args: string[]; flag: string; example: RegExp }[] = [
    {
      args: ['session', 'start', '--task', 'x'],
      flag: '--session <id>',
      example: /checker session start --session fix-discount-1 --task "/,
    },
    { args: ['session', 'context'], flag: '--session <id>', example: /checker session context --session fix-discount-1\./ },
    {
      args: ['session', 'checkpoint', '--kind', 'plan', '--summary', 'x'],
      flag: '--session <id>',
      example: /--session fix-discount-1 --kind plan --summary "/,
    },
    { args: ['session', 'checkpoint', '--session', 's1', '--summary', 'x'], flag: '--kind <plan|diff>', example: /--kind plan/ },
    { args: ['session', 'checkpoint', '--session', 's1', '--kind', 'diff'], flag: '--summary <text>', example: /--summary "/ },
    { args: ['session', 'finish'], flag: '--session <id>', example: /checker session finish --session fix-discount-1\./ },
    { args: ['ai', 'preflight'], flag: '--task <text>', example: /checker ai preflight --task "/ },
    { args: ['context', '--max-nodes', '5'], flag: '--task <text>', example: /checker context --task "/ },
  ];
  for (const { args, flag, example } of cases) {
    const name = args.filter((arg, index) => !arg.startsWith('-') && !args[index - 1]?.startsWith('-')).join(' ');
    it(`checker ${args.join(' ')} names ${flag.split(' ')[0]} and the fix, exit 2`, async () => {
      const result = await runCliAsync(args);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      const [message = '', hint = ''] = result.stderr.split('\n');
      assert.ok(message.startsWith(`checker: usage/missing-flag: checker ${name} needs ${flag}`), message);
      assert.match(hint, /^ {2}hint: Example: /);
      assert.match(hint, example);
      assert.equal(result.stderr.includes('undefined'), false);
    });
  }

  it('a required flag given an invalid value is named by the command (session id)', async () => {
    const result = await runCliAsync(['session', 'finish', '--session', '../x']);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^checker: session\/invalid-id: --session must be 1-64 characters of letters, .* \(got "\.\.\/x"\)\n {2}hint: .*--session fix-discount-1/,
    );
  });
});

describe('one source for command texts', () => {
  it('the CLI help and the MCP tool of a capability share its title and description', async () => {
    const pairs: [string[], keyof typeof TOOL_TEXTS, keyof typeof COMMAND_TEXTS][] = [
      [['analyze'], 'analyze_pr', 'analysis'],
      [['impact'], 'impact_map', 'impact'],
      [['ai'], 'agent_task_bundle', 'agentBundle'],
      [['context'], 'task_context', 'taskContext'],
    ];
    for (const [path, tool, text] of pairs) {
      const entry = commands.find((candidate) => candidate.path.join(' ') === path.join(' '));
      assert.equal(entry?.text, COMMAND_TEXTS[text]);
      assert.equal(TOOL_TEXTS[tool].title, COMMAND_TEXTS[text].title);
      assert.ok(TOOL_TEXTS[tool].description.startsWith(COMMAND_TEXTS[text].description), tool);
    }
    for (const operation of ['start', 'context', 'checkpoint', 'finish'] as const) {
      const entry = commands.find((candidate) => candidate.path.join(' ') === `session ${operation}`);
      assert.ok(entry !== undefined && TOOL_TEXTS.agent_session.description.includes(`"${operation}" ${entry.text.description}`));
    }
  });
});
