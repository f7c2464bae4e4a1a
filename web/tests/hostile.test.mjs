// Archived content never runs on the service's origin: hostile captures (an SVG with a
// script, a GIF/JavaScript polyglot declared text/javascript, an HTML page with a script;
// tests/testing/hostile_archive.hpp) are indexed and opened in chromium through replay.
// Each script, if it ran, would set a marker and fetch /imagesearch?q=...leak; the access log
// shows whether any such request reached the server.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, startServer, launchBrowser, findStrata, findHelper, workDir, indexArchives } from './fixture.mjs';

const TS = '20080430204829';
const strata = findStrata();
const writer = findHelper(strata, 'strata_web_hostile_warc', 'STRATA_WEB_HOSTILE_WARC');
const reason = (await skipReason()) || (writer ? null : 'strata_web_hostile_warc not built');
if (reason) console.log(`# SKIP hostile replay browser tests: ${reason}`);

let server, browser, work, accessLog;
const replay = (url, image = true) => `${server.base}/wayback/${TS}${image ? 'im_' : ''}/${url}`;
const leaks = () => fs.readFileSync(accessLog, 'utf8').split('\n').filter((l) => l.includes('leak'));
const settle = (page) => page.waitForTimeout(500);  // time for a script's fetch to go out

describe('hostile archived content', { skip: reason || false }, () => {
  before(async () => {
    work = workDir('hostile');
    const warc = path.join(work, 'hostile.warc.gz');
    const index = path.join(work, 'index');
    accessLog = path.join(work, 'access.jsonl');
    execFileSync(writer, [warc]);
    indexArchives(index, 'hostile', [warc]);
    server = await startServer({ strata, index, sample: work },
      ['--safe-search', 'off', '--access-log', accessLog]);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('indexes both hostile images', async () => {
    const r = await (await fetch(`${server.base}/imagesearch?q=hostile`)).json();
    assert.equal(r.totalItems, 2);
  });

  it('an archived SVG opened directly runs no script', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(replay('http://hostile.example/evil.svg'));
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'image/svg+xml');
    assert.match(res.headers()['content-security-policy'], /^sandbox;/);
    await settle(page);
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-ran')), null);
    await context.close();
    assert.deepEqual(leaks(), []);
  });

  it('without the policy the same SVG would have run (the test can fail)', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(replay('http://hostile.example/evil.svg'));
    await page.waitForFunction(() => document.documentElement.getAttribute('data-ran') === '1',
      null, { timeout: 5000 });
    await context.close();
    assert.ok(leaks().some((l) => l.includes('svgleak')), 'the unprotected script reached the API');
    fs.writeFileSync(accessLog, '');
  });

  it('the viewer shows an archived SVG at its own size as an image: its script never runs', async () => {
    const r = await (await fetch(`${server.base}/imagesearch?q=&safeSearch=off&decorative=show&collapse=off&maxItems=50&fields=imgDigest,imgSrc,imgMimeType`)).json();
    const position = r.responseItems.findIndex((i) => i.imgSrc === 'http://hostile.example/evil.svg');
    assert.ok(position >= 0, 'the SVG is found');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/?q=&safe=off&decorative=show&view=${position}&img=${r.responseItems[position].imgDigest}`);
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction(() => document.querySelector('#viewer-img').src.includes('/wayback/'));
    assert.match(await page.getAttribute('#viewer-img', 'src'), /im_\/http:\/\/hostile\.example\/evil\.svg$/);
    await settle(page);
    assert.equal(await page.evaluate(() => window.__strataLeak), undefined);
    await context.close();
    assert.deepEqual(leaks(), []);
  });

  it('a record declared text/javascript never loads as script on the UI origin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/`);
    const res = await fetch(replay('http://hostile.example/evil.js'));
    assert.equal(res.headers.get('content-type'), 'image/gif');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const outcome = await page.evaluate((src) => new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = () => resolve('loaded');
      s.onerror = () => resolve('refused');
      document.head.append(s);
    }), replay('http://hostile.example/evil.js'));
    assert.equal(outcome, 'refused');
    await settle(page);
    assert.equal(await page.evaluate(() => window.__strataLeak), undefined);
    await context.close();
    assert.deepEqual(leaks(), []);
  });

  it('an archived HTML page runs no script and cannot read the API', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(replay('http://hostile.example/', false));
    assert.equal(res.status(), 200);
    assert.match(res.headers()['content-security-policy'], /sandbox/);
    assert.equal(await page.locator('h1').textContent(), 'Hostile page');
    await settle(page);
    assert.notEqual(await page.title(), 'ran');
    await context.close();
    assert.deepEqual(leaks(), []);
  });
});
