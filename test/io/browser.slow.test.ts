import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CheckerError } from '../../src/model/diagnostic.js';
import type { ProductExploration } from '../../src/model/product-exploration.js';
import { findChromium } from '../../src/io/browser.js';
import { createNodeEnv } from '../../src/io/node-env.js';
import { makeTempDir } from '../helpers/git-repo.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Site {
  server: Server;
  origin: string;
  hits: string[];
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Site> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, hits };
}

function html(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html><html>${body}</html>`);
}

/** A shop with planted faults; `external` is another origin (another port) that must never be requested. */
function shopPages(external: string): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    switch (request.url) {
      case '/':
        return html(
          response,
          200,
          `<head><title>Shop home</title></head><body><main><h1>Welcome to the shop</h1><nav>
<a href="/about">About</a> <a href="${external}/tracker">Partner</a> <a href="/gallery">Gallery</a>
<a href="/missing-page">Old offers</a> <a href="#top">Top</a></nav></main></body>`,
        );
      case '/about':
        return html(
          response,
          200,
          `<head><title>About us</title></head><body><main><p>We sell tea.</p></main>
<script>console.error('widget failed to load'); throw new Error('about widget exploded');</script></body>`,
        );
      case '/gallery':
        return html(
          response,
          200,
          `<head><title>Gallery</title></head><body><main><p>Photos</p><img src="/images/missing.png" alt="tea">
<img src="${external}/pixel.png" alt=""></main><a href="/">Home</a></body>`,
        );
      default:
        return html(response, 404, '<head><title>Not found</title></head><body></body>');
    }
  };
}

/** Pids of this process's descendants (from /proc), so a test can see that no browser outlived the call. */
function descendantPids(): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parents.set(Number(name), Number(fields[1]));
    } catch {}
  }
  const found: number[] = [];
  for (const [pid] of parents) {
    let current = parents.get(pid);
    while (current !== undefined && current > 1) {
      if (current === process.pid) {
        found.push(pid);
        break;
      }
      current = parents.get(current);
    }
  }
  return found;
}

describe('exploreProduct in a real Chromium', () => {
  let shop: Site;
  let external: Site;
  let repo: string;
  let result: ProductExploration;

  before(async () => {
    external = await listen((_request, response) => {
      response.writeHead(200);
      response.end('tracked');
    });
    shop = await listen(shopPages(external.origin));
    repo = makeTempDir('checker-browser-');
    const before = new Set(descendantPids());
    result = await createNodeEnv(repo).exploreProduct({ baseUrl: `${shop.origin}/`, artifactsFolder: 'product-runs/run-1/pages' });
    const left = descendantPids().filter((pid) => !before.has(pid));
    assert.deepEqual(left, [], 'the browser and its helpers are gone when exploreProduct returns');
  });

  after(() => {
    shop.server.close();
    external.server.close();
    rmSync(repo, { recursive: true, force: true });
  });

  test('visits same-origin pages breadth-first and records what each one did', () => {
    assert.equal(result.stoppedBy, 'complete');
    assert.equal(result.origin, shop.origin);
    assert.deepEqual(
      result.pages.map((page) => [page.path, page.depth, page.status, page.title, page.hasMainContent]),
      [
        ['/', 0, 200, 'Shop home', true],
        ['/about', 1, 200, 'About us', true],
        ['/gallery', 1, 200, 'Gallery', true],
        ['/missing-page', 1, 404, 'Not found', false],
      ],
    );
    const [home, about, gallery, missing] = result.pages;
    assert.deepEqual(home?.consoleErrors, []);
    assert.deepEqual(home?.pageErrors, []);
    assert.deepEqual(home?.failedRequests, []);
    assert.deepEqual(home?.links, [
      { url: `${shop.origin}/about`, resolved: true, status: 200 },
      { url: `${shop.origin}/gallery`, resolved: true, status: 200 },
      { url: `${shop.origin}/missing-page`, resolved: false, status: 404 },
      { url: `${shop.origin}/`, resolved: true, status: 200 },
    ]);
    assert.deepEqual(about?.pageErrors, ['about widget exploded']);
    assert.deepEqual(about?.consoleErrors, ['widget failed to load']);
    assert.deepEqual(about?.failedRequests, []);
    assert.deepEqual(gallery?.failedRequests, [
      { url: `${shop.origin}/images/missing.png`, method: 'GET', resourceType: 'image', status: 404 },
    ]);
    assert.deepEqual(gallery?.blockedRequests, [`${external.origin}/pixel.png`]);
    assert.equal(gallery?.consoleErrors.length, 1, 'the 404 image is logged; the aborted external image is not');
    assert.match(gallery?.consoleErrors[0] ?? '', /404/);
    assert.deepEqual(gallery?.links, [{ url: `${shop.origin}/`, resolved: true, status: 200 }]);
    assert.deepEqual(missing?.links, []);
  });

  test('never sends a request to another origin', () => {
    assert.deepEqual(external.hits, []);
    assert.ok(!shop.hits.includes('/tracker'));
  });

  test('writes a PNG screenshot and a DOM snapshot per page under .checker/local', () => {
    for (const [index, page] of result.pages.entries()) {
      const name = String(index + 1).padStart(3, '0');
      assert.equal(page.screenshot, `.checker/local/product-runs/run-1/pages/page-${name}.png`);
      assert.equal(page.domSnapshot, `.checker/local/product-runs/run-1/pages/page-${name}.html`);
      const png = readFileSync(join(repo, page.screenshot ?? ''));
      assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), `${page.path}: PNG signature`);
    }
    assert.match(readFileSync(join(repo, result.pages[1]?.domSnapshot ?? ''), 'utf8'), /We sell tea\./);
  });
});

describe('exploration bounds and tracing', () => {
  let shop: Site;
  let repo: string;

  before(async () => {
    shop = await listen(shopPages('http://127.0.0.1:9'));
    repo = makeTempDir('checker-browser-bounds-');
  });

  after(() => {
    shop.server.close();
    rmSync(repo, { recursive: true, force: true });
  });

  test('maxPages 1 visits the base page only and says why it stopped', async () => {
    const result = await createNodeEnv(repo).exploreProduct({ baseUrl: shop.origin, artifactsFolder: 'runs/one', maxPages: 1 });
    assert.deepEqual(
      result.pages.map((page) => page.path),
      ['/'],
    );
    assert.equal(result.stoppedBy, 'max-pages');
    assert.deepEqual(
      result.pages[0]?.links.map((link) => [new URL(link.url).pathname, link.status]),
      [
        ['/about', 200],
        ['/gallery', 200],
        ['/missing-page', 404],
        ['/', 200],
      ],
      'links of visited pages are still checked (without following redirects)',
    );
  });

  test('maxDepth 0 visits the start paths and writes a trace when asked', async () => {
    const result = await createNodeEnv(repo).exploreProduct({
      baseUrl: shop.origin,
      startPaths: ['/about', 'https://elsewhere.example/', '/about#team'],
      artifactsFolder: 'runs/depth',
      maxDepth: 0,
      trace: true,
    });
    assert.deepEqual(
      result.pages.map((page) => [page.path, page.depth]),
      [
        ['/', 0],
        ['/about', 0],
      ],
    );
    assert.equal(result.stoppedBy, 'complete');
    assert.equal(result.trace, '.checker/local/runs/depth/trace.zip');
    assert.ok(
      readFileSync(join(repo, result.trace ?? ''))
        .subarray(0, 2)
        .equals(Buffer.from('PK')),
    );
  });
});

describe('exploration time budget', () => {
  test('a page that never answers ends the run at the budget, with the browser closed', async () => {
    const stuck = await listen(() => undefined);
    const repo = makeTempDir('checker-browser-budget-');
    try {
      const before = new Set(descendantPids());
      const started = Date.now();
      const result = await createNodeEnv(repo).exploreProduct({
        baseUrl: stuck.origin,
        artifactsFolder: 'runs/budget',
        // The budget counts the browser's launch too, which takes seconds on a loaded 2-core CI machine: 4 s once left
        // no time for the first page at all.
        timeBudgetMs: 10_000,
        pageTimeoutMs: 60_000,
      });
      const elapsed = Date.now() - started;
      assert.equal(result.stoppedBy, 'time-budget');
      // Well before the page's own 60 s timeout: the budget ended it (a loose bound, only a hang guard).
      assert.ok(elapsed < 50_000, `returned after ${elapsed} ms`);
      assert.equal(result.pages.length, 1);
      // Playwright's timeout at the budget's edge or, on a loaded machine, the budget closing the browser under the
      // stuck navigation: either way the page is listed with the error that ended it.
      assert.match(result.pages[0]?.navigationError ?? '', /Timeout|has been closed/i);
      assert.deepEqual(
        descendantPids().filter((pid) => !before.has(pid)),
        [],
      );
    } finally {
      stuck.server.closeAllConnections();
      stuck.server.close();
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('findChromium', () => {
  let dir: string;

  before(() => {
    dir = makeTempDir('checker-chromium-');
    writeFileSync(join(dir, 'chrome'), '#!/bin/sh\n');
    chmodSync(join(dir, 'chrome'), 0o755);
    writeFileSync(join(dir, 'not-executable'), '');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  test('config wins over CHECKER_CHROMIUM, which wins over the well-known paths', async () => {
    const chrome = join(dir, 'chrome');
    assert.deepEqual(await findChromium({ configured: chrome, fromEnvironment: '/nowhere/chrome', wellKnown: [] }), {
      executablePath: chrome,
      source: 'config',
    });
    assert.deepEqual(await findChromium({ fromEnvironment: chrome, wellKnown: ['/usr/bin/chromium'] }), {
      executablePath: chrome,
      source: 'CHECKER_CHROMIUM',
    });
    assert.deepEqual(await findChromium({ wellKnown: [join(dir, 'absent'), join(dir, 'not-executable'), chrome] }), {
      executablePath: chrome,
      source: 'well-known path',
    });
  });

  test('CHECKER_CHROMIUM naming a missing file is refused, not skipped for another browser', async () => {
    await assert.rejects(
      findChromium({ fromEnvironment: join(dir, 'gone'), wellKnown: [join(dir, 'chrome')] }),
      (error: unknown) =>
        error instanceof CheckerError &&
        error.code === 'product/no-browser' &&
        error.message.includes('CHECKER_CHROMIUM') &&
        error.message.includes(join(dir, 'gone')) &&
        (error.hint ?? '').includes('apt-get install chromium'),
    );
  });

  test("finds the newest Chromium in Playwright's cache under HOME", async () => {
    const home = join(dir, 'home');
    for (const build of ['1100', '1200']) {
      mkdirSync(join(home, '.cache', 'ms-playwright', `chromium-${build}`, 'chrome-linux'), { recursive: true });
      const path = join(home, '.cache', 'ms-playwright', `chromium-${build}`, 'chrome-linux', 'chrome');
      writeFileSync(path, '#!/bin/sh\n');
      chmodSync(path, 0o755);
    }
    assert.deepEqual(await findChromium({ home, wellKnown: [] }), {
      executablePath: join(home, '.cache', 'ms-playwright', 'chromium-1200', 'chrome-linux', 'chrome'),
      source: 'playwright cache',
    });
  });

  test('no browser anywhere: product/no-browser lists where it looked and how to install one', async () => {
    const home = join(dir, 'empty-home');
    mkdirSync(home);
    const candidate = join(dir, 'absent-chromium');
    await assert.rejects(findChromium({ home, wellKnown: [candidate] }), (error: unknown) => {
      assert.ok(error instanceof CheckerError);
      assert.equal(error.code, 'product/no-browser');
      assert.ok(error.message.includes(candidate));
      assert.ok(error.message.includes(join(home, '.cache', 'ms-playwright')));
      assert.match(error.hint ?? '', /apt-get install chromium/);
      assert.match(error.hint ?? '', /npx playwright install chromium/);
      assert.match(error.hint ?? '', /CHECKER_CHROMIUM/);
      return true;
    });
    assert.ok(!existsSync(join(home, '.cache')));
  });
});
