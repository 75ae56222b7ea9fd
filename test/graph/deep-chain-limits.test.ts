import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildKnowledgeGraph, DEFAULT_GRAPH_LIMITS } from '../../src/graph/build.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import { emptyFacts, type FileFacts } from '../../src/model/facts.js';
import type { GraphInput } from '../../src/model/graph.js';
import type { Resolution } from '../../src/model/resolve.js';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';
import { withoutDocuments } from '../helpers/graph-input.js';

const linkPath = (index: number): string => `src/chain/m${index}.ts`;

/** `count` files, each importing the next by name: a file node, an export node and three edges a link. */
function buildChainInput(count: number): GraphInput {
  const files: GraphInput['files'] = [];
  const resolutions = new Map<string, Resolution[]>();
  for (let index = 0; index < count; index += 1) {
    const facts: FileFacts = {
      ...emptyFacts(3),
      exports: [{ name: `step${index}`, kind: 'function', span: { start: 1, end: 3 }, typeOnly: false }],
    };
    if (index < count - 1) {
      facts.imports = [
        {
          specifier: `./m${index + 1}`,
          kind: 'static',
          typeOnly: false,
          line: 1,
          names: [{ imported: `step${index + 1}`, local: `step${index + 1}`, typeOnly: false }],
        },
      ];
      resolutions.set(linkPath(index), [{ specifier: `./m${index + 1}`, kind: 'relative', target: linkPath(index + 1) }]);
    }
    files.push({ path: linkPath(index), size: 80, hash: `h${index}`, facts });
  }
  return { files, resolutions, ...withoutDocuments() };
}

function assertGraphLimit(error: unknown, limit: number): true {
  assert.ok(error instanceof CheckerError, String(error));
  assert.equal(error.code, 'limits/graph-too-large');
  assert.match(error.message, new RegExp(`more than ${limit} nodes and edges \\(the graph limit, analysis\\.maxGraphElements\\)`));
  assert.match(error.hint ?? '', /analysis\.ignore/);
  assert.match(error.hint ?? '', /--cwd/);
  return true;
}

test('the default graph limit admits a 50,000-file tree at 30 elements a file, with a quarter to spare (src/graph/knowledge-graph.ts)', async () => {
  assert.equal(DEFAULT_GRAPH_LIMITS.maxElements, 2_000_000);
  assert.ok(DEFAULT_GRAPH_LIMITS.maxElements >= 50_000 * 30 * 1.25);
});

test('a chain within the limit builds: two nodes and three edges a link', async () => {
  const knowledge = buildKnowledgeGraph(buildChainInput(100), { maxElements: 500 });
  assert.equal(knowledge.graph.order, 200);
  assert.equal(knowledge.graph.size, 100 + 2 * 99);
});

test('files, exports and imports already over the limit: refused before any node is added', async () => {
  assert.throws(
    () => buildKnowledgeGraph(buildChainInput(100), { maxElements: 250 }),
    (error) => assertGraphLimit(error, 250) && /needs at least/.test(String(error)),
  );
});

test('a graph that grows past the limit while edges are added: refused with the same error', async () => {
  assert.throws(
    () => buildKnowledgeGraph(buildChainInput(100), { maxElements: 400 }),
    (error) => assertGraphLimit(error, 400) && /would hold/.test(String(error)),
  );
});

test('analysis.maxGraphElements sets the limit from the repository config: exit 2 naming the key, and an invalid value is refused', async () => {
  const files: Record<string, string> = { '.checker/config.yml': 'analysis:\n  maxGraphElements: 1000\n' };
  for (let index = 0; index < 300; index += 1)
    files[`src/m${index}.ts`] =
      `import { step${index + 1} } from './m${index + 1}';\nexport const step${index} = () => step${index + 1};\n`;
  const repo = createRepo(files);
  try {
    const refused = await runCliAsync(['graph', '--format', 'json', '--cwd', repo.dir]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /^checker: limits\/graph-too-large: .*more than 1000 nodes and edges \(the graph limit, analysis\.maxGraphElements\)/m,
    );
    assert.match(refused.stderr, /raise analysis\.maxGraphElements/);
    repo.write({ '.checker/config.yml': 'analysis:\n  maxGraphElements: 5\n' });
    const invalid = await runCliAsync(['graph', '--format', 'json', '--cwd', repo.dir]);
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /analysis\.maxGraphElements/);
    repo.write({ '.checker/config.yml': 'analysis:\n  maxGraphElements: 100000\n' });
    assert.equal((await runCliAsync(['graph', '--format', 'json', '--cwd', repo.dir])).code, 0);
  } finally {
    repo.cleanup();
  }
});
