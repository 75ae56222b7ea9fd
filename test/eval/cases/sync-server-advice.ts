/**
 * @actual-app/sync-server@25.6.0 as its authors keep it: the published tsc output (`build/src/**`, plain ES
 * modules with their tests, see ./actual-sync-server.ts for how the Express app is wired and why) committed
 * as `src/**`, because checker rightly treats a `build/` folder as generated output and asks no proof of it.
 * Two changes, labelled by reading the code:
 *  - a one-line status change in the POST /sync handler (422 → 400 when `since` is missing, app-sync.js:58);
 *  - a rename: app-sync/validation.js → app-sync/validate.js with its one importer updated.
 */
import type { FileTree } from '../../helpers/git-repo.js';
import { moveFolder, readPackageFiles } from '../../helpers/eval-corpus.js';
import { buildEditedRepo, type CaseRepo, type EvalCase, type TextEdit } from '../case.js';
import { PACKAGE } from './actual-sync-server.js';

const readAsSource = (): FileTree =>
  moveFolder(readPackageFiles(PACKAGE.name, PACKAGE.version, ['build/src', 'package.json']), 'build/src', 'src');

const buildEdited = async (edits: readonly TextEdit[], message: string, renames: readonly [string, string][] = []): Promise<CaseRepo> =>
  buildEditedRepo(readAsSource(), edits, message, renames);

export const SYNC_STATUS_CHANGE: EvalCase = {
  id: 'sync-server-status-change',
  kind: 'express app',
  description:
    'POST /sync/sync answers 400 instead of 422 when `since` is missing (src/app-sync.js:58, an Express sub-app mounted at /sync)',
  build: () =>
    buildEdited(
      [
        {
          path: 'src/app-sync.js',
          after: "app.post('/sync'",
          search: "res.status(422).send({\n            details: 'since-required',",
          replace: "res.status(400).send({\n            details: 'since-required',",
        },
      ],
      'sync: a missing since is a bad request',
    ),
  expect: {
    changeKinds: { 'src/app-sync.js': 'runtime' },
    maxTasks: 12,
    riskLevels: ['medium', 'high'],
    proofTasks: 1,
    impactedRoutes: ['route:POST /sync/sync'],
    mustTasks: [
      {
        kind: 'proof',
        text: /src\/app-sync\.js.*src\/app-sync\.test\.js/,
        why: 'app-sync.test.js imports the sync app (handlers) and is the test to extend',
      },
      { kind: 'edge-case', text: /POST \/sync\/sync/, why: 'the one route the change reaches, behind validateSessionMiddleware' },
    ],
    mustNotTasks: [
      {
        text: /GET \/health|GET \/mode|GET \/metrics|\/account\/|\/admin\/|\/secret|\/gocardless|\/openid|upload-user-file/,
        why: 'the change is inside one handler: no other route is reached',
      },
      { text: /\.test\.test\./, why: 'a test file gets no test of its own' },
    ],
    semanticEdgeCase: { file: 'src/app-sync.js', line: 58, kind: 'error-path', values: /asserting the new status 400 \(was 422\)/ },
  },
};

export const SYNC_RENAME: EvalCase = {
  id: 'sync-server-rename',
  kind: 'rename',
  description: 'src/app-sync/validation.js renamed to validate.js (content unchanged) and the one import of it in src/app-sync.js updated',
  build: () =>
    buildEdited(
      [{ path: 'src/app-sync.js', search: "} from './app-sync/validation.js';", replace: "} from './app-sync/validate.js';" }],
      'sync: validation.js is validate.js',
      [['src/app-sync/validation.js', 'src/app-sync/validate.js']],
    ),
  expect: {
    changeKinds: { 'src/app-sync/validate.js': 'rename', 'src/app-sync.js': 'runtime' },
    maxTasks: 12,
    riskLevels: ['low', 'medium'],
    // Only the edited import line of app-sync.js runs differently (it must still resolve); the rename itself runs nothing new.
    proofTasks: 1,
    mustTasks: [
      {
        kind: 'proof',
        text: /src\/app-sync\.js/,
        why: 'the updated import is on the path of every /sync route; running app-sync.test.js proves it resolves',
      },
    ],
    mustNotTasks: [
      { text: /deleted|validation\.js/, why: 'a rename is not a deletion: nothing asks about the old path' },
      { text: /validate\.js.*(?:exercises|calls|uses)/, why: 'a zero-line rename has no changed code to exercise' },
    ],
  },
};
