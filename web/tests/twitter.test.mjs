// A modern, script-heavy capture on the replay origin: Webrecorder's 2019 browser capture of
// twitter.com/netpreserve (../shared/data). Served with `strata serve --replay-port`, its
// scripts (webpack bundles, jQuery, inline state) are wrapped by the server for wombat's
// proxies (docs/replay.md): every one still parses and runs, the bundles they load at run
// time come from the archive, the timeline shows its tweets and their images, the page's
// scripts see the archived URL, and no request leaves the server.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repo, skipReason, launchBrowser, openRecorded, startWithReplayOrigin, workDir, indexArchives } from './fixture.mjs';

const shared = process.env.STRATA_SHARED || path.resolve(repo, '../shared');
const warc = path.join(shared, 'data/archives/webrecorder__replayweb.page/mkdocs/site/docs/examples/netpreserve-twitter.warc');
const wombatJs = path.join(repo, 'web/node_modules/@webrecorder/wombat/dist/wombat.js');
const reason = (await skipReason()) ||
  (fs.existsSync(warc) ? null : `${warc} not found (../shared absent)`) ||
  (fs.existsSync(wombatJs) ? null : `${wombatJs} not found (run scripts/setup-web)`);
if (reason) console.log(`# SKIP twitter replay test: ${reason}`);

const PAGE = 'https://twitter.com/netpreserve';
const TS = '20190603053135';
let server, browser, replayBase;

describe('a 2019 Twitter capture on the replay origin', { skip: reason || false }, () => {
  before(async () => {
    const work = workDir('twitter');
    const index = indexArchives(path.join(work, 'index'), 'twitter-2019', [warc]);
    ({ server, replayBase } = await startWithReplayOrigin(index, work));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('its wrapped scripts parse and run, the timeline shows, and nothing leaves the server', async () => {
    const { context, page, res, leaks, responses, errors } = await openRecorded(browser,
      `${server.base}/wayback/2019/${PAGE}`, [new URL(server.base).origin, new URL(replayBase).origin]);
    assert.equal(res.status(), 200);
    assert.equal(page.url(), `${replayBase}/wayback/${TS}/${PAGE}`);
    // The bundle the page's scripts load at run time (webpack's chunk loader) came from the archive.
    await page.waitForResponse((r) => r.url().includes('/https://abs.twimg.com/k/en/0.commons.en.') && r.status() === 200,
      { timeout: 15000 }).catch(() => null);
    assert.ok(responses.some((r) => r.url.includes('/https://abs.twimg.com/k/en/0.commons.en.') && r.status === 200),
      JSON.stringify(responses.map((r) => `${r.status} ${r.url}`), null, 1));
    // No script failed to parse: the server's wrapping kept every one valid JavaScript.
    assert.deepEqual(errors.filter((e) => /SyntaxError/.test(e)), []);
    assert.equal(await page.locator('.tweet').count(), 21);
    await page.waitForFunction(() => [...document.images].filter((i) => i.complete && i.naturalWidth > 0).length >= 40,
      null, { timeout: 15000 });
    // The page's router read the archived URL, not the replay server's: it left the address
    // as it is (unwrapped, it rewrote it to …/https://twitter.com/twitter.com/netpreserve).
    await page.waitForTimeout(1000);
    assert.equal(page.url(), `${replayBase}/wayback/${TS}/${PAGE}`);
    await context.close();
    assert.deepEqual(leaks, [], 'requests left the server');
  });
});
