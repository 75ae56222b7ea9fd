import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { createResolver } from '../../src/graph/resolve/index.js';
import { getGrammarParsers } from '../../src/worker/grammars.js';
import { makeTempDir, writeTree } from '../helpers/git-repo.js';

const ORACLE = join(import.meta.dirname, '..', 'helpers', 'python-oracle.py');

/** A src-layout project: packages, subpackages, relative imports of every depth, a name of a module, tests beside it. */
const TREE: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "shop"\n',
  'src/shop/__init__.py': 'from .app import create_app\n\n__all__ = ["create_app"]\n',
  'src/shop/app.py':
    'from flask import Flask\n\nfrom . import views\nfrom .config import Settings\n\n\ndef create_app():\n    return Flask(__name__)\n',
  'src/shop/config.py': 'import os\n\n\nclass Settings:\n    debug = os.environ.get("DEBUG")\n',
  'src/shop/views.py':
    'from .models import order\nfrom .models.order import Order\nfrom .services import pricing as p\nfrom shop.util.text import slugify\n',
  'src/shop/models/__init__.py': 'from .order import Order\n',
  'src/shop/models/order.py':
    'from dataclasses import dataclass\n\nfrom ..util import money\n\n\n@dataclass\nclass Order:\n    total: int\n',
  'src/shop/services/__init__.py': '',
  'src/shop/services/pricing.py': 'from ..models import Order\nfrom ..util.money import to_cents\nimport shop.config\n',
  'src/shop/util/__init__.py': '',
  'src/shop/util/money.py': 'from decimal import Decimal\n\n\ndef to_cents(x):\n    return int(Decimal(x) * 100)\n',
  'src/shop/util/text.py': 'import re\n\n\ndef slugify(s):\n    return re.sub(r"\\W+", "-", s)\n',
  'tests/conftest.py': 'import pytest\n\nfrom shop import create_app\n',
  'tests/helpers.py': 'from shop.models import Order\n',
  'tests/test_pricing.py': 'from helpers import Order\nfrom shop.services.pricing import to_cents\nfrom shop.util import money, text\n',
  'scripts/seed.py': 'import shop.models.order\nfrom shop.services import pricing\n',
};

test("Python imports resolve to the files the interpreter's own import system finds", async () => {
  const dir = makeTempDir('checker-python-oracle-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeTree(dir, TREE);
  const paths = Object.keys(TREE);
  const python = paths.filter((path) => path.endsWith('.py'));
  const oracle: Record<string, string[]> = JSON.parse(
    execFileSync('python3', [ORACLE, dir, 'src', '.', 'tests'], { input: python.join('\n'), encoding: 'utf8' }),
  );

  const parsers = await getGrammarParsers(python);
  const resolver = createResolver({ files: new Set(paths), tsconfigs: new Map(), packageJsons: new Map() });
  const ours: Record<string, string[]> = {};
  for (const path of python) {
    const facts = extractFacts(path, readFileSync(join(dir, path), 'utf8'), { assertionHelpers: [] }, parsers);
    assert.equal(facts.failure, undefined, path);
    const targets = new Set<string>();
    for (const fact of facts.imports) {
      const resolution = resolver.resolve(path, fact.specifier);
      // pytest's conftest.py files reach a test without an import: not the import system's, so not compared.
      if (fact.specifier.startsWith('conftest:')) continue;
      for (const target of [resolution.target, ...(resolution.packageFiles ?? [])])
        if (target !== undefined && target !== path) targets.add(target);
    }
    ours[path] = [...targets].sort();
  }
  assert.deepEqual(ours, oracle);
  // The oracle is not empty: a relative import two levels up and a module imported by name are among its answers. (The
  // packages above a module run when it is imported, but an import names the module: that is the edge compared.)
  assert.deepEqual(oracle['src/shop/models/order.py'], ['src/shop/util/money.py']);
  assert.deepEqual(oracle['src/shop/views.py'], ['src/shop/models/order.py', 'src/shop/services/pricing.py', 'src/shop/util/text.py']);
});
