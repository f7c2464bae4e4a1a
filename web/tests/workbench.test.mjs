// The researcher's workbench in headless chromium against `strata serve` (docs/ui.md): the
// viewer shows the archived image at its own size, the grid stays sharp at devicePixelRatio 2,
// the home page shows the index's own summary, the collection filter is a choice list, export
// progress counts images, and "Visually similar" lists what the API finds.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, prepareData, startServer, launchBrowser, openPage, screenshotsDir } from './fixture.mjs';

const reason = await skipReason();
if (reason) console.log(`# SKIP workbench browser tests: ${reason}`);

let data, server, browser, summary;
const shots = process.env.STRATA_WEB_SCREENSHOTS !== '0';
const getJson = async (p) => (await fetch(`${server.base}${p}`)).json();
const digits = (s) => Number(String(s).replace(/\D/g, ''));
async function shot(page, name) {
  if (!shots) return;
  fs.mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`) });
}

describe('workbench', { skip: reason || false }, () => {
  before(async () => {
    data = prepareData();
    server = await startServer(data);
    browser = await launchBrowser();
    summary = await getJson('/imagesearch/summary');
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('the viewer shows the archived image at its own size, not the thumbnail', async (t) => {
    const all = await getJson('/imagesearch?q=&maxItems=60&fields=imgDigest,imgSrc,imgTstamp,imgWidth,imgHeight,imgMimeType');
    // A raster image larger than its thumbnail, smaller than the viewer's figure.
    const position = all.responseItems.findIndex((i) => Math.max(i.imgWidth, i.imgHeight) > 250 &&
      i.imgWidth <= 600 && i.imgHeight <= 500 && !/svg/.test(i.imgMimeType));
    assert.ok(position >= 0, 'an image larger than a thumbnail');
    const item = all.responseItems[position];
    const page = await openPage(browser, t);
    await page.goto(`${server.base}/?q=&view=${position}&img=${item.imgDigest}`);
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction(() => {
      const i = document.querySelector('#viewer-img');
      return i.complete && i.naturalWidth > 0 && i.src.includes('/wayback/');
    });
    const shown = await page.$eval('#viewer-img', (i) => ({
      src: i.currentSrc, naturalWidth: i.naturalWidth, naturalHeight: i.naturalHeight,
      width: i.getBoundingClientRect().width, height: i.getBoundingClientRect().height,
      fallback: i.classList.contains('fallback'),
    }));
    assert.match(shown.src, /\/wayback\/\d{14}im_\//, 'the replay of the archived image');
    assert.equal(shown.fallback, false);
    assert.equal(shown.naturalWidth, item.imgWidth, 'natural width is the document\'s');
    assert.equal(shown.naturalHeight, item.imgHeight, 'natural height is the document\'s');
    // It fits, so it is drawn at its own size, not enlarged nor shrunk.
    assert.ok(Math.abs(shown.width - item.imgWidth) <= 1 && Math.abs(shown.height - item.imgHeight) <= 1,
      `drawn ${shown.width}×${shown.height}`);
    // Archived bytes keep the sandboxing policy (replay_safety.hpp).
    const r = await fetch(new URL(shown.src, server.base));
    assert.match(r.headers.get('content-security-policy'), /sandbox/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    await shot(page, 'viewer-original');
  });

  it('the grid never draws a thumbnail larger than its pixels at devicePixelRatio 2', async (t) => {
    const page = await openPage(browser, t, { deviceScaleFactor: 2 });
    await page.goto(`${server.base}/?q=`);
    await page.waitForSelector('.tile img');
    await page.waitForFunction(() => [...document.querySelectorAll('.tile img')].slice(0, 20)
      .every((i) => i.complete && i.naturalWidth > 0), null, { timeout: 20000 });
    const tiles = await page.$$eval('.tile img', (imgs) => Promise.all(imgs.slice(0, 20).map(async (i) => {
      // The pixels of the source the browser chose, decoded on their own (no density).
      const probe = new Image();
      probe.src = i.currentSrc;
      await probe.decode();
      const box = i.getBoundingClientRect();
      // object-fit: scale-down over the density-corrected natural size.
      const s = Math.min(1, box.width / i.naturalWidth, box.height / i.naturalHeight);
      return { src: i.currentSrc, drawnWidth: i.naturalWidth * s, drawnHeight: i.naturalHeight * s,
        pixelsWidth: probe.naturalWidth, pixelsHeight: probe.naturalHeight };
    })));
    assert.ok(tiles.length >= 10);
    let highDensity = 0;
    for (const tile of tiles) {
      assert.match(tile.src, /\/thumbnail\/safe\/2x\//, 'the high-density candidate');
      const enlarged = Math.max(tile.drawnWidth * 2 / tile.pixelsWidth, tile.drawnHeight * 2 / tile.pixelsHeight);
      assert.ok(enlarged <= 1.01, `${tile.src}: drawn at ${enlarged.toFixed(2)}× its pixels`);
      if (Math.max(tile.pixelsWidth, tile.pixelsHeight) > 200) highDensity++;
    }
    assert.ok(highDensity > 0, 'some thumbnails have more than 200 pixels');
    const direct = await fetch(`${server.base}${new URL(tiles[0].src).pathname}`);
    assert.equal(direct.headers.get('content-type'), 'image/webp');
  });

  it('the home page shows the index\'s collections, years, size and example queries', async (t) => {
    assert.ok(summary.totalImages > 0);
    assert.ok(summary.collections.length >= 1);
    assert.ok(summary.examples.length >= 4, 'examples drawn from the index');
    // The counts are the search's own.
    for (const c of summary.collections) {
      const r = await getJson(`/imagesearch?q=&collection=${encodeURIComponent(c.name)}&safeSearch=off&decorative=show&collapse=off&maxItems=0`);
      assert.equal(r.totalItems, c.images, c.name);
    }
    const page = await openPage(browser, t);
    await page.goto(`${server.base}/`);
    await page.waitForSelector('#collections li');
    const overview = await page.textContent('#index-overview');
    assert.equal(digits(overview.split(' images')[0]), summary.totalImages);
    assert.match(overview, new RegExp(`${summary.from}–${summary.to}`));
    const shown = await page.$$eval('#collections li', (lis) => lis.map((li) => li.dataset.collection));
    assert.deepEqual(shown, summary.collections.map((c) => c.name));
    const examples = await page.$$eval('#examples li:not(.browse) a', (as) => as.map((a) => a.textContent));
    assert.deepEqual(examples, summary.examples);
    await shot(page, 'home');
    // Each example finds images.
    await page.click('#examples li:first-child a');
    await page.waitForSelector('#status .count');
    assert.ok(Number(await page.getAttribute('#status .count', 'data-total')) > 0);
    // A collection's link lists its images.
    await page.goto(`${server.base}/`);
    await page.click('#collections li:first-child a');
    await page.waitForFunction((n) => new URL(location.href).searchParams.get('collection') === n, summary.collections[0].name);
  });

  it('the collection filter is a choice list of the index\'s collections', async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${server.base}/?q=`);
    await page.waitForSelector('#status .count');
    assert.equal(await page.$eval('#f-collection', (e) => e.tagName), 'SELECT');
    await page.waitForSelector('#f-collection option:nth-child(2)', { state: 'attached' });
    const options = await page.$$eval('#f-collection option', (os) => os.map((o) => o.value));
    assert.deepEqual(options, ['', ...summary.collections.map((c) => c.name)]);
    const last = summary.collections[summary.collections.length - 1];
    await page.selectOption('#f-collection', last.name);
    await page.waitForFunction((n) => new URL(location.href).searchParams.get('collection') === n, last.name);
    const expected = (await getJson(`/imagesearch?q=&collection=${encodeURIComponent(last.name)}&maxItems=0`)).totalItems;
    await page.waitForFunction((n) => Number(document.querySelector('#status .count')?.dataset.total) === n
      || (n === 0 && document.querySelector('.empty')), expected);
    // A collection the index lacks (a shared link) stays chosen.
    await page.goto(`${server.base}/?q=&collection=nosuchcollection`);
    await page.waitForSelector('.empty');
    assert.equal(await page.inputValue('#f-collection'), 'nosuchcollection');
  });

  it('no results: the hints offer the index\'s example queries', async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${server.base}/?q=qqqzzzxxyy`);
    await page.waitForSelector('.empty');
    await page.waitForFunction((q) => [...document.querySelectorAll('.empty a')].some((a) => a.textContent === q), summary.examples[0]);
  });

  it('export progress counts the images written', async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${server.base}/?q=`);
    await page.waitForSelector('.status .export');
    const total = Number(await page.getAttribute('.status .count', 'data-total'));
    await page.click('.status .export summary');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.export a[data-format="jsonl"]')]);
    assert.match(download.url(), /[?&]progress=[0-9a-f]{32}/);
    await page.waitForSelector('.export-progress.done', { timeout: 30000 });
    assert.equal(Number(await page.getAttribute('.export-progress', 'data-images')), total);
    assert.equal(Number(await page.getAttribute('.export-progress', 'data-total')), total);
    assert.match(await page.textContent('.export-progress'), /JSONL export finished: [\d,]+ images/);
  });

  it('"Visually similar" in the viewer lists what the API finds, in its order', async (t) => {
    const all = await getJson('/imagesearch?q=&maxItems=40&fields=imgDigest');
    let probe = null;
    for (const [position, item] of all.responseItems.entries()) {
      const r = await fetch(`${server.base}/imagesearch/similar?digest=${item.imgDigest}&mode=visual&maxItems=48&safeSearch=on`);
      if (r.status === 422) continue;  // no embedding (analysed without the model)
      const body = await r.json();
      if (body.totalItems > 0) { probe = { ...item, position, body }; break; }
    }
    if (!probe) return t.skip('no image with a visual embedding (the NSFW model is not installed)');
    const page = await openPage(browser, t);
    await page.goto(`${server.base}/?q=&view=${probe.position}&img=${probe.imgDigest}`);
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction(() => document.querySelector('#viewer-dl dt'));
    await page.click('#viewer-visual');
    await page.waitForSelector('#similar[open] #similar-grid[data-mode="visual"] li');
    const shown = await page.$$eval('#similar-grid li', (lis) => lis.map((li) => li.dataset.digest));
    assert.deepEqual(shown, probe.body.responseItems.map((i) => i.imgDigest));
    assert.equal(await page.textContent('#similar-heading'), 'Visually similar images');
    const labels = await page.$$eval('#similar-grid .similar-distance', (ss) => ss.map((s) => s.textContent));
    probe.body.responseItems.forEach((item, k) => {
      if (item.distance === undefined) assert.match(labels[k], /^\d+ % alike$/);
    });
    await shot(page, 'similar-visual');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#similar:not([open])', { state: 'attached' });
    assert.equal(await page.isVisible('#viewer'), true);
  });
});
