// Test fixture: a generated sample archive, indexed, served by `strata serve` (which also
// serves web/public at "/"), and a headless Debian chromium driven by playwright-core.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const CHROMIUM = process.env.STRATA_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function findStrata() {
  const candidates = [process.env.STRATA_BIN, 'build-web', 'build', 'build-search']
    .filter(Boolean).map((c) => (c.includes('/') ? c : path.join(repo, c, 'apps/strata/strata')));
  return candidates.find((c) => fs.existsSync(c));
}
// A test helper built beside strata (tests/web), or as named by its environment variable.
export function findHelper(strata, name, envVar) {
  const c = [process.env[envVar],
    strata && path.resolve(path.dirname(strata), `../../tests/web/${name}`)].filter(Boolean);
  return c.find((x) => fs.existsSync(x));
}
export { findStrata };

// Why the browser tests cannot run here, or null.
export async function skipReason() {
  if (!fs.existsSync(CHROMIUM)) return `chromium not found at ${CHROMIUM} (run scripts/setup-web)`;
  try {
    await import('playwright-core');
  } catch {
    return 'playwright-core missing in web/node_modules (run scripts/setup-web)';
  }
  if (!findStrata()) return 'strata binary not found (build it, or set STRATA_BIN)';
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url, ms = 20000) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${last}`);
}

// A gradient bar (1800x89: decorative, hidden unless asked for) whose alt is this word: the
// sample's first document under another digest, URL, size and texts.
export const DECORATIVE_WORD = 'webtestgradientbar';
function addDecorativeImage(strata, work, sample, index) {
  const first = fs.readFileSync(path.join(sample, 'truth/documents.jsonl'), 'utf8').split('\n')[0];
  const digest = 'f'.repeat(64);
  const doc = {
    ...JSON.parse(first), id: digest, imgDigest: digest, imgUrl: 'http://webtest.example/img/blendbar.jpg',
    imgSurt: '(example,webtest,)/img/blendbar.jpg', imgUrlTokens: 'webtest example img blendbar jpg',
    imgWidth: 1800, imgHeight: 89, imgAlt: [DECORATIVE_WORD], imgTitle: [], imgCaption: [],
  };
  const file = path.join(work, 'decorative.jsonl');
  fs.writeFileSync(file, `${JSON.stringify(doc)}\n`);
  execFileSync(strata, ['index-docs', '--index', index, '--collection', 'webtest', '--no-analysis', file],
    { stdio: 'pipe' });
}

// Builds (once per binary) a sample archive + index; returns paths and the data's facts.
export function prepareData({ scale = '400' } = {}) {
  const strata = findStrata();
  const stamp = fs.statSync(strata).mtimeMs.toFixed(0);
  const work = path.join(process.env.STRATA_WEB_WORK || path.join(os.tmpdir(), 'strata-web-test'), `${scale}-${stamp}-2`);
  const sample = path.join(work, 'sample');
  const index = path.join(work, 'index');
  const done = path.join(work, 'ready.json');
  if (!fs.existsSync(done)) {
    fs.rmSync(work, { recursive: true, force: true });
    fs.mkdirSync(work, { recursive: true });
    execFileSync(strata, ['sample', '--out', sample, '--scale', scale, '--seed', '7'], { stdio: 'pipe' });
    execFileSync(strata, ['index-docs', '--index', index, '--collection', 'webtest',
      path.join(sample, 'truth/documents.jsonl')], { stdio: 'pipe' });
    addDecorativeImage(strata, work, sample, index);
    const docs = fs.readFileSync(path.join(sample, 'truth/documents.jsonl'), 'utf8')
      .split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((d) => !d.isInline);
    // One image is marked NSFW (safe search must hide it): the one with the most alt text.
    const nsfw = docs.filter((d) => (d.imgAlt || []).length && !d.imgUrl.startsWith('hash:'))
      .sort((a, b) => a.id.localeCompare(b.id))[0];
    const moderate = findHelper(strata, 'strata_web_moderate', 'STRATA_WEB_MODERATE');
    let nsfwId = null;
    if (moderate && nsfw) {
      execFileSync(moderate, ['--index', index, nsfw.id, '0.97'], { stdio: 'pipe' });
      nsfwId = nsfw.id;
    }
    fs.writeFileSync(done, JSON.stringify({ nsfwId, nsfwAlt: nsfw?.imgAlt?.[0] || null }));
  }
  return { strata, sample, index, ...JSON.parse(fs.readFileSync(done, 'utf8')) };
}

// `args`: more `strata serve` options.
export async function startServer(data, args = []) {
  const port = await freePort();
  // Archive paths in the documents are relative to the sample folder: serve from there.
  const proc = spawn(data.strata, ['serve', '--index', data.index, '--port', String(port), ...args], {
    cwd: data.sample, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, STRATA_WEB_DIR: path.join(repo, 'web/public') },
  });
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  // A server that goes away on its own fails every later test: say how, with its log.
  let stopping = false;
  proc.on('exit', (code, signal) => {
    if (!stopping) console.error(`strata serve exited unexpectedly (code ${code}, signal ${signal})\n${log}`);
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    stopping = true;
    proc.kill();
  };
  try {
    await waitFor(`${base}/imagesearch/healthcheck`);
  } catch (e) {
    stop();
    throw new Error(`${e.message}\n${log}`);
  }
  return { base, stop, log: () => log };
}

export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  // playwright-core gives every launch a fresh, empty user data dir.
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}

// A page in a fresh browser context of `browser` (English, 1280×860, reduced motion), closed
// after test `t`, which then fails on any uncaught error in the page. `pageSize` sets the UI's
// page size; `bypassCSP` lets a test inject scripts; `deviceScaleFactor` is the screen's density.
export async function openPage(browser, t, { locale = 'en-GB', viewport = { width: 1280, height: 860 }, pageSize, bypassCSP = false, deviceScaleFactor = 1 } = {}) {
  const context = await browser.newContext({ locale, viewport, reducedMotion: 'reduce', bypassCSP, deviceScaleFactor });
  if (pageSize) await context.addInitScript((n) => { window.__STRATA_PAGE_SIZE__ = n; }, pageSize);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  t.after(async () => {
    await context.close();
    assert.deepEqual(errors, [], 'no uncaught errors in the page');
  });
  return page;
}

// A fresh folder NAME-… under STRATA_WEB_WORK (ctest sets it), else the system's temporary one.
export function workDir(name) {
  const parent = process.env.STRATA_WEB_WORK || os.tmpdir();
  fs.mkdirSync(parent, { recursive: true });
  return fs.mkdtempSync(path.join(parent, `${name}-`));
}

// Indexes `archives` into `index` as collection `collection`, as a user would but without
// analysis (`extra` adds options, e.g. [] to analyse); returns `index`.
export function indexArchives(index, collection, archives, extra = ['--no-analysis']) {
  execFileSync(findStrata(), ['index', '--index', index, '--collection', collection, ...extra,
    '--jobs', '1', ...archives], { stdio: 'pipe' });
  return index;
}

// Opens `url` in a fresh context of `browser` for replay tests: every request to an origin
// not in `origins` is aborted and listed in `leaks` (the live web is never reached), and the
// page's responses, Content-Security-Policy refusals and uncaught errors are recorded.
export async function openRecorded(browser, url, origins) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const leaks = [], responses = [], refusals = [], errors = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (origins.includes(new URL(u).origin) || /^(data|blob):/.test(u)) return route.continue();
    leaks.push(u);
    return route.abort();
  });
  page.on('response', (r) => responses.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] || '' }));
  // Chromium reports a refusal as "Refused to load …" or, since 2025, "Loading … violates the
  // following Content Security Policy directive".
  page.on('console', (m) => { if (/Refused to|violates the following Content Security Policy/.test(m.text())) refusals.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const res = await page.goto(url, { waitUntil: 'load' });
  return { context, page, res, leaks, responses, refusals, errors };
}

// `strata serve` of `index` (safe search off) with a replay origin of its own
// (--replay-port): the server and the replay origin's base URL, read from the server's log.
export async function startWithReplayOrigin(index, sample) {
  const server = await startServer({ strata: findStrata(), index, sample },
    ['--safe-search', 'off', '--replay-port', '0']);
  const port = /replay origin on [^:]+:(\d+)/.exec(server.log())?.[1];
  assert.ok(port, server.log());
  return { server, replayBase: `http://127.0.0.1:${port}` };
}

// Screenshots go to the work folder, so a test run leaves the checkout clean;
// STRATA_UPDATE_SCREENSHOTS=1 refreshes the committed ones in docs/screenshots instead.
export const screenshotsDir = process.env.STRATA_UPDATE_SCREENSHOTS === '1'
  ? path.join(repo, 'docs/screenshots')
  : path.join(process.env.STRATA_WEB_WORK || path.join(os.tmpdir(), 'strata-web-test'), 'screenshots');
