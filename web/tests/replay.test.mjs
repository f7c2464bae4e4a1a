// Replay of a real crawl in chromium (the 2008 archive.org crawl of ../shared/data): the
// archived home page's (index.php) images and stylesheets load from the archive, no request leaves the
// server (every other origin is refused and fails the test), nothing is refused for pointing
// at the live web (the rewriting covered every URL), and the banner shows the served date.
// Served with --replay-port too, an item page of the crawl runs its own archived scripts under wombat on
// the replay origin, and a URL built by script loads from the archive; the home page shows
// the crawl's collection and year.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repo, skipReason, startServer, launchBrowser, findStrata, openRecorded, startWithReplayOrigin, workDir, indexArchives } from './fixture.mjs';

const shared = process.env.STRATA_SHARED || path.resolve(repo, '../shared');
const warc = path.join(shared, 'data/archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz');
const reason = (await skipReason()) || (fs.existsSync(warc) ? null : `${warc} not found (../shared absent)`);
if (reason) console.log(`# SKIP replay browser tests: ${reason}`);
const wombatJs = path.join(repo, 'web/node_modules/@webrecorder/wombat/dist/wombat.js');
const noWombat = fs.existsSync(wombatJs) ? false : `${wombatJs} not found (run scripts/setup-web)`;
if (!reason && noWombat) console.log(`# SKIP the replay origin's test: ${noWombat}`);

let server, withOrigin, replayBase, browser;

// Opens `url`; requests to other origins than `ours` are refused and recorded (fixture.mjs).
async function open(url, ours = [new URL(server.base).origin]) {
  const opened = await openRecorded(browser, url, ours);
  await opened.page.waitForTimeout(300);
  return opened;
}

describe('replay of a real crawl', { skip: reason || false }, () => {
  before(async () => {
    const work = workDir('replay');
    const index = indexArchives(path.join(work, 'index'), 'archive-org-2008', [warc]);
    server = await startServer({ strata: findStrata(), index, sample: work }, ['--safe-search', 'off']);
    if (!noWombat) {
      ({ server: withOrigin, replayBase } = await startWithReplayOrigin(index, work));
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
    withOrigin?.stop();
  });

  it('a partial timestamp lands on the capture served, shown in the banner', async () => {
    const { context, page, res, leaks } = await open(`${server.base}/wayback/2008/http://www.archive.org/index.php`);
    assert.equal(res.status(), 200);
    assert.equal(page.url(), `${server.base}/wayback/20080430204826/http://www.archive.org/index.php`);
    assert.equal(res.headers()['memento-datetime'], 'Wed, 30 Apr 2008 20:48:26 GMT');
    const date = page.locator('#strata-replay-date time');
    assert.equal(await date.getAttribute('datetime'), '2008-04-30T20:48:26Z');
    assert.equal(await date.textContent(), '30 Apr 2008 20:48:26 UTC');
    await context.close();
    assert.deepEqual(leaks, []);
  });

  it("the page's images and stylesheets load from the archive and nothing else is asked for", async () => {
    const { context, page, leaks, responses, refusals } = await open(`${server.base}/wayback/20080430204826/http://www.archive.org/index.php`);
    const ok = (mod, type) => responses.filter((r) => r.url.includes(`${mod}/http`) && r.status === 200 && type.test(r.type));
    const images = ok('im_', /^image\//);
    const styles = ok('cs_', /^text\/css/);
    console.log(`# ${images.length} images and ${styles.length} stylesheets from the archive; ${responses.length} responses`);
    assert.ok(images.length >= 3, JSON.stringify(responses, null, 1));
    assert.ok(styles.length >= 1, JSON.stringify(responses, null, 1));
    const shown = await page.evaluate(() => [...document.images].filter((i) => i.complete && i.naturalWidth > 0).length);
    assert.ok(shown >= 3, `${shown} images rendered`);
    await context.close();
    assert.deepEqual(leaks, [], 'requests left the server');
    assert.deepEqual(refusals.filter((t) => /https?:\/\/(?!127\.0\.0\.1)/.test(t)), [], 'markup still named the live web');
  });

  it("the banner leads to every capture of the URL, and each back to its replay", async () => {
    const { context, page, leaks } = await open(`${server.base}/wayback/20080430204826/http://www.archive.org/index.php`);
    await Promise.all([page.waitForNavigation(), page.click('#strata-replay-banner >> text=all captures')]);
    assert.equal(page.url(), `${server.base}/wayback/*/http://www.archive.org/index.php`);
    assert.match(await page.locator('h1').textContent(), /^\d+ captures? of http:\/\/www\.archive\.org\/index\.php$/);
    await Promise.all([page.waitForNavigation(), page.click('li a >> nth=0')]);
    assert.match(page.url(), /\/wayback\/\d{14}\/http:\/\/www\.archive\.org\/index\.php$/);
    assert.ok(await page.locator('#strata-replay-date').isVisible());
    await context.close();
    assert.deepEqual(leaks, []);
  });

  it('on the replay origin the archived scripts run under wombat and a URL built by script loads from the archive', { skip: noWombat }, async () => {
    // An item page of the crawl that loads its flash-player script, flv.js (archived too).
    const item = 'http://www.archive.org/details/DrinkingWithBob-MadonnaAdoptsAfricanBaby887';
    const ts = '20080430204831';
    const ours = [new URL(withOrigin.base).origin, new URL(replayBase).origin];
    const { context, page, res, leaks, responses } = await open(`${withOrigin.base}/wayback/${ts}/${item}`, ours);
    assert.equal(res.status(), 200);
    assert.equal(page.url(), `${replayBase}/wayback/${ts}/${item}`);
    // flv.js came from the archive and ran: archived scripts run on this origin.
    assert.ok(responses.some((r) => r.url.includes('js_/http://www.archive.org/flv/flv.js') && r.status === 200),
      JSON.stringify(responses, null, 1));
    assert.equal(await page.evaluate(() => typeof window.DetectFlashVer), 'function');
    // A URL built at run time, in a form the server's pass cannot see: wombat rewrites it.
    const [image] = await Promise.all([
      page.waitForResponse((r) => r.url().startsWith(`${replayBase}/wayback/`) &&
        r.url().endsWith('im_/http://www.archive.org/images/LOCLogoSmall.jpg') && r.status() === 200),
      page.evaluate(() => {
        const img = document.createElement('img');
        img.id = 'built';
        img.src = 'http:' + '//www.archive.org/images/' + 'LOCLogoSmall.jpg';
        document.body.appendChild(img);
      }),
    ]);
    assert.match(image.headers()['content-type'], /^image\//);
    await page.waitForFunction(() => document.getElementById('built').naturalWidth > 0);
    assert.equal(await page.locator('#strata-replay-date time').getAttribute('datetime'), '2008-04-30T20:48:31Z');
    await context.close();
    assert.deepEqual(leaks, [], 'requests left the server');
  });

  it("the home page shows the crawl's own collection and year", async () => {
    const { context, page, leaks } = await open(`${server.base}/`);
    await page.waitForSelector('#collections li');
    const text = await page.textContent('#collections');
    assert.match(text, /archive-org-2008/);
    assert.match(text, /2008/);
    await context.close();
    assert.deepEqual(leaks, []);
  });
});
