// "More like this" in the viewer and search by uploaded image, in headless chromium against
// `strata serve` (docs/ui.md): near-duplicates of the sample's ground truth, nearest first,
// the uploaded picture itself found at distance 0, and a refused upload explained.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { skipReason, prepareData, startServer, launchBrowser, openPage } from './fixture.mjs';

const reason = await skipReason();
if (reason) console.log(`# SKIP similar-image browser tests: ${reason}`);

let data, server, browser;
// An image of a ground-truth near-duplicate group that safe search shows, its position in
// the list of every image, and what the API finds like it.
let probe;

const newPage = (t) => openPage(browser, t);
const getJson = async (p) => (await fetch(`${server.base}${p}`)).json();

async function findProbe() {
  const all = [];
  for (let offset = 0; ; offset += 200) {
    const r = await getJson(`/imagesearch?q=&offset=${offset}&maxItems=200&fields=imgDigest,imgTstamp,imgSrc`);
    all.push(...r.responseItems);
    if (r.responseItems.length < 200 || offset >= 2000) break;
  }
  const groups = fs.readFileSync(path.join(data.sample, 'truth/near-duplicates.jsonl'), 'utf8')
    .split('\n').filter(Boolean).map((l) => JSON.parse(l).digests);
  for (const digest of groups.flat()) {
    const position = all.findIndex((i) => i.imgDigest === digest);
    if (position < 0) continue;
    const similar = await getJson(`/imagesearch/similar?digest=${digest}`);
    if (similar.totalItems > 0) return { ...all[position], position, similar };
  }
  return null;
}

describe('similar images', { skip: reason || false }, () => {
  before(async () => {
    data = prepareData();
    server = await startServer(data);
    browser = await launchBrowser();
    probe = await findProbe();
    assert.ok(probe, 'a ground-truth near-duplicate that the API finds');
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('More like this in the viewer lists the near-duplicates, nearest first', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=&view=${probe.position}&img=${probe.imgDigest}`);
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction(() => document.querySelector('#viewer-dl dt'));
    await page.click('#viewer-similar');
    await page.waitForSelector('#similar[open] #similar-grid li');
    const shown = await page.$$eval('#similar-grid li', (lis) => lis.map((li) => li.dataset.digest));
    assert.deepEqual(shown, probe.similar.responseItems.map((i) => i.imgDigest));
    assert.ok(!shown.includes(probe.imgDigest), 'the image itself is not "like" itself');
    const labels = await page.$$eval('.similar-distance', (s) => s.map((x) => x.textContent));
    assert.ok(labels.every((l) => /Same picture|Distance \d+/.test(l)), labels.join());
    assert.match(await page.textContent('#similar-status'), new RegExp(`^${probe.similar.totalItems} similar images`));
    assert.match(await page.getAttribute('#similar-query', 'src'), /\/thumbnail\/safe\//);
    // Escape closes the similar images, not the viewer under them.
    await page.keyboard.press('Escape');
    await page.waitForSelector('#similar:not([open])', { state: 'attached' });
    assert.equal(await page.isVisible('#viewer[open]'), true);
  });

  it('search by image: an uploaded copy finds the archived picture at distance 0', async (t) => {
    const bytes = Buffer.from(await (await fetch(`${server.base}/wayback/${probe.imgTstamp}im_/${probe.imgSrc}`)).arrayBuffer());
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'strata-upload-')), 'picture');
    fs.writeFileSync(file, bytes);
    t.after(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
    const page = await newPage(t);
    await page.goto(`${server.base}/`);
    assert.equal(await page.textContent('#upload-button'), 'Search by image');
    await page.setInputFiles('#upload-file', file);
    await page.waitForSelector('#similar[open] #similar-grid li');
    const shown = Object.fromEntries(await page.$$eval('#similar-grid li', (lis) => lis.map((li) =>
      [li.dataset.digest, li.querySelector('.similar-distance').textContent])));
    assert.equal(shown[probe.imgDigest], 'Same picture');
    assert.deepEqual(Object.keys(shown).sort(),
      [probe.imgDigest, ...probe.similar.responseItems.map((i) => i.imgDigest)].sort());
    assert.match(await page.getAttribute('#similar-query', 'src'), /^blob:/);
  });

  it('search by image: a file that is no image is refused with a reason', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?lang=pt`);
    await page.setInputFiles('#upload-file', { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await page.waitForFunction(() => /falhou/.test(document.querySelector('#similar-status').textContent));
    assert.match(await page.textContent('#similar-status'), /not an image Strata can decode/);
    assert.equal(await page.locator('#similar-grid li').count(), 0);
  });
});
