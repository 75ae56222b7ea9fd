import type { Handoff } from '../model/bundle.js';
import type { AgentProfile } from '../model/config.js';
import { CheckerError } from '../model/diagnostic.js';

/** Spec 2.14: profiles shape only the handoff wording; none calls an agent, a model or the network. */
export const PROFILES: readonly AgentProfile[] = ['generic', 'codex', 'claude-code', 'cursor', 'pi', 'opencode', 'desktop'];

const HANDOFFS: Readonly<Record<AgentProfile, Omit<Handoff, 'profile'>>> = {
  generic: {
    audience: 'any coding agent working in this repository',
    deliver:
      'Save the bundle with `--output bundle.md` (it lands in .checker/local/) and give the prompt to your agent as its first message.',
    runTests:
      'Run the repository test command and the checks listed in this prompt from the repository root in your shell, and keep the output.',
    reportBack:
      'Reply with one line per task number (done, not done, or blocked and why), the tests you added (file and test name), and the command output that proves them.',
  },
  codex: {
    audience: 'a Codex repository session',
    deliver:
      'Start a session at the repository root and paste the prompt as the task; the full evidence stays in the bundle file under .checker/local/.',
    runTests:
      'Run the tests and the checks listed in this prompt in the session terminal; if a command needs network or extra permissions, stop and say so instead of working around it.',
    reportBack:
      'End with a final message listing each task number as done, not done or blocked, the files you changed, the tests you added, and the test command output.',
  },
  'claude-code': {
    audience: 'a Claude Code session',
    deliver:
      'Start Claude Code at the repository root and paste the prompt, or save the bundle with `--output bundle.md` and ask it to read .checker/local/bundle.md.',
    runTests: 'Run the tests and the checks listed in this prompt with the shell tool; ask before any command that is not listed here.',
    reportBack:
      'Finish with a summary: each task number as done, not done or blocked, the files you changed, the tests you added, and the test output.',
  },
  cursor: {
    audience: 'the agent mode of the Cursor editor',
    deliver:
      'Open the repository in the editor, switch the chat to agent mode and paste the prompt; attach the files named in the tasks as context.',
    runTests: 'Run the tests and the checks listed in this prompt in the integrated terminal and show their output in the chat.',
    reportBack:
      'Reply in the chat with each task number as done, not done or blocked, the edited files, the tests you added, and the terminal output.',
  },
  pi: {
    audience: 'an agent harness or compatible agent workflow',
    deliver:
      'Pass the prompt as the harness task input; point the harness at the JSON bundle (`--format json --output bundle.json`) for machine-readable evidence.',
    runTests:
      'Run the tests and the checks listed in this prompt through the harness shell step, one command per step, and keep each exit code.',
    reportBack:
      'Return a final report with one entry per task number (status done, not-done or blocked), changed files, added tests, and each command with its exit code.',
  },
  opencode: {
    audience: 'an opencode session',
    deliver: 'Start opencode at the repository root and paste the prompt as the first message.',
    runTests: 'Run the tests and the checks listed in this prompt with the bash tool from the repository root.',
    reportBack:
      'End with a summary of each task number as done, not done or blocked, the files you changed, the tests you added, and the test output.',
  },
  desktop: {
    audience: 'a desktop or local agent app',
    deliver: 'Paste the prompt into the app; if it cannot read the repository, attach the files named in the tasks.',
    runTests:
      'If the app can run commands, run the tests and the checks listed in this prompt; if it cannot, give the user the exact commands to run and wait for the output.',
    reportBack:
      'Reply with each task number as done, not done or blocked, the changes as file-by-file patches, the tests you added, and which commands still need to be run.',
  },
};

function isAgentProfile(value: unknown): value is AgentProfile {
  return typeof value === 'string' && (PROFILES as readonly string[]).includes(value);
}

/** The profile named by the user, or CheckerError `usage/invalid-profile` listing the valid values. */
export function toAgentProfile(value: unknown): AgentProfile {
  if (isAgentProfile(value)) return value;
  throw new CheckerError('usage/invalid-profile', `--profile ${JSON.stringify(value)} is not a known agent profile`, {
    hint: `Use one of: ${PROFILES.join(', ')}.`,
  });
}

export function getHandoff(profile: AgentProfile): Handoff {
  return { profile, ...HANDOFFS[profile] };
}
