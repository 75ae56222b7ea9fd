import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../../src/app/load/load-config.js';
import { isCheckerError } from '../../../src/model/diagnostic.js';
import { memEnv } from '../../helpers/memory-env.js';

async function rejectsWith(work: Promise<unknown>, code: string, message: string): Promise<void> {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(isCheckerError(error));
    assert.equal(error.code, code);
    assert.equal(error.message, message);
    assert.deepEqual(error.location, { file: message.match(/"([^"]+)"/)?.[1] });
    return true;
  });
}

describe('loadConfig over memEnv (no disk)', () => {
  test('merges the config files by precedence and fails closed when they disagree on a safety gate', async () => {
    const env = memEnv({
      files: {
        '.checker/config.yml': 'safety:\n  allowCommands: true\nanalysis:\n  maxFileBytes: 4096\n',
        'checker.config.yml': 'safety:\n  allowCommands: false\nanalysis:\n  maxFileBytes: 2048\n  defaultBranch: main\n',
        '.checker/local/config.yml': 'safety:\n  allowCommands: true\n',
      },
    });
    assert.deepEqual(await loadConfig(env), {
      config: { safety: { allowCommands: false }, analysis: { maxFileBytes: 4096, defaultBranch: 'main' } },
      sources: ['.checker/config.yml', 'checker.config.yml'],
      diagnostics: [
        {
          code: 'config/safety-conflict',
          severity: 'warn',
          message: '.checker/config.yml and checker.config.yml disagree on safety.allowCommands; using the fail-closed value false',
          hint: 'set safety.allowCommands in one config file only, or make the files agree',
          location: { file: '.checker/config.yml' },
        },
      ],
      files: [
        { file: '.checker/config.yml', config: { safety: { allowCommands: true }, analysis: { maxFileBytes: 4096 } } },
        {
          file: 'checker.config.yml',
          config: { safety: { allowCommands: false }, analysis: { maxFileBytes: 2048, defaultBranch: 'main' } },
        },
      ],
    });
    assert.deepEqual(await loadConfig(memEnv()), { config: {}, sources: [], diagnostics: [] });
  });

  test('refuses a config file that leads outside the repository, is not a regular file, is too large or is not UTF-8', async () => {
    await rejectsWith(
      loadConfig(memEnv({ links: { '.checker/config.yml': '/etc/checker.yml' } })),
      'input/outside-repo',
      'config file ".checker/config.yml" resolves outside the repository (symlink)',
    );
    await rejectsWith(
      loadConfig(memEnv({ specials: ['checker.config.yaml'] })),
      'input/not-a-file',
      'config file "checker.config.yaml" is not a regular file',
    );
    await rejectsWith(
      loadConfig(memEnv({ files: { 'checker.config.yml': `# ${'x'.repeat(256 * 1024)}\n` } })),
      'input/too-large',
      `config file "checker.config.yml" is ${256 * 1024 + 3} bytes, over the ${256 * 1024}-byte limit`,
    );
    await rejectsWith(
      loadConfig(memEnv({ files: { '.checker/config.yaml': Uint8Array.from([0x61, 0x3a, 0x20, 0xff]) } })),
      'input/invalid-utf8',
      'config file ".checker/config.yaml" is not valid UTF-8',
    );
  });
});
