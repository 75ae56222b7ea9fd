import { parse } from 'shell-quote';

export type CommandWords = { ok: true; argv: string[] } | { ok: false; problem: string };

/**
 * Splits a configured command string into the words checker runs, the way a POSIX shell would quote them
 * but with nothing a shell would add: no variables, no globs, no operators, no substitution, no comments.
 * Anything of those is refused (`problem` says what and the fix), never passed on as literal text the
 * user did not mean. Tokenising is shell-quote's; the refusals are ours.
 */
export function splitCommand(command: string): CommandWords {
  if (command.includes('`')) return refuse('uses a backtick (command substitution)');
  const variables: string[] = [];
  const words = parse(command, (name) => {
    variables.push(name);
    return { variable: name };
  });
  if (variables.length > 0) {
    const shown = variables[0] === '' ? '$(…)' : `$${variables[0]}`;
    return refuse(`uses ${shown}, which only a shell expands`);
  }
  const argv: string[] = [];
  for (const word of words) {
    if (typeof word === 'string') {
      argv.push(word);
    } else if ('comment' in word) {
      return refuse('has a # comment');
    } else if (word.op === 'glob') {
      return refuse(`uses the glob ${word.pattern}`);
    } else {
      return refuse(`uses the shell operator ${word.op}`);
    }
  }
  if (argv.length === 0 || argv[0] === '') return { ok: false, problem: 'is empty' };
  return { ok: true, argv };
}

function refuse(what: string): CommandWords {
  return {
    ok: false,
    problem: `${what}; checker runs commands without a shell: write each word literally, use "argv" for exact words, and split chained commands into separate checks`,
  };
}
