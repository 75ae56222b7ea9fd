import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectSubjectWords } from '../../src/graph/history/subject-words.js';
import type { MinedCommit } from '../../src/model/history.js';

const commit = (message: string, paths: string[]): MinedCommit => ({
  oid: '0'.repeat(40),
  timestamp: 0,
  authorEmail: 'a@b.c',
  message,
  paths,
});

describe('collectSubjectWords', () => {
  it('lists, per kept file, the words of the subjects of the commits that changed it, each commit counting a word once', () => {
    const words = collectSubjectWords(
      {
        commits: [
          commit('fix(locale): Kazakh plural forms, plural again (#412)\n\nThe body says Safari, which is not the subject.', [
            'src/kk.ts',
            'docs/kk.md',
          ]),
          commit('Kazakh: genitive after teens', ['src/kk.ts']),
          commit('Bump version', ['package.json']),
        ],
      },
      (path) => path.startsWith('src/'),
      10,
    );
    assert.deepEqual([...words], [['src/kk.ts', 'fix forms genitive kazakh*2 locale plural teens']]);
  });

  it('leaves out a commit of more files than the bound', () => {
    const paths = ['a.ts', 'b.ts', 'c.ts'];
    assert.deepEqual([...collectSubjectWords({ commits: [commit('Kazakh sweep', paths)] }, () => true, 2)], []);
    assert.equal(collectSubjectWords({ commits: [commit('Kazakh sweep', paths)] }, () => true, 3).size, 3);
  });
});
