// "Hide redundant results" (redundancy.js, docs/ui.md) in headless chromium against `strata
// serve`: a preset hides what the API's cover hides and says how many, kept results carry
// their "covers N" badge, the viewer's "Show what this covers" lists the API's expand= answer,
// a bad rule is refused with its column before any search, and a free rule equal to a preset
// gives the same page.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, prepareData, startServer, launchBrowser, openPage } from './fixture.mjs';

const reason = await skipReason();
if (reason) console.log(`# SKIP redundancy browser tests: ${reason}`);

let data, server, browser;
const PAGE = 24;
const FIELDS = 'imgDigest,imgTstamp,imgSrc';
const getJson = async (p) => (await fetch(`${server.base}${p}`)).json();
const newPage = (t) => openPage(browser, t, { pageSize: PAGE });
const tileDigests = (page) => page.$$eval('#results a.tile', (as) =>
  as.map((a) => new URL(a.href).searchParams.get('img')));

describe('hide redundant results', { skip: reason || false }, () => {
  let cover;  // the API's answer for the preset
  before(async () => {
    data = prepareData();
    server = await startServer(data);
    browser = await launchBrowser();
    cover = await getJson(`/imagesearch?q=&redundancy=perhost&maxItems=${PAGE}&fields=${FIELDS}`);
    assert.ok(cover.redundancy.window > cover.redundancy.kept, 'one per site hides something');
    assert.ok(cover.responseItems.some((i) => i.covers > 0));
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('a preset hides what the cover hides, says how many and badges the keepers', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=`);
    await page.waitForSelector('#results a.tile');
    assert.equal(await page.textContent('#r-preset option[value="perhost"]'), 'One per site: the newest');
    await page.selectOption('#r-preset', 'perhost');
    await page.waitForFunction(() => document.querySelector('#r-summary').dataset.hidden);
    assert.equal(new URL(page.url()).searchParams.get('redundancy'), 'perhost');
    const { window, kept } = cover.redundancy;
    assert.equal(await page.getAttribute('#r-summary', 'data-hidden'), String(window - kept));
    assert.match(await page.textContent('#r-summary'),
      new RegExp(`^${window - kept} of the top ${window} results hidden as redundant, ${kept} shown`));
    await page.waitForFunction((n) => document.querySelectorAll('#results a.tile').length >= n,
      Math.min(PAGE, kept));
    const shown = (await tileDigests(page)).slice(0, PAGE);
    assert.deepEqual(shown, cover.responseItems.map((i) => i.imgDigest));
    const badges = await page.$$eval('#results a.tile', (as) => as.slice(0, 24).map((a) =>
      Number(a.querySelector('.cover-badge')?.dataset.covers || 0)));
    assert.deepEqual(badges, cover.responseItems.map((i) => i.covers));
    // The export takes every result: no redundancy in its links.
    const csv = await page.getAttribute('.export a[data-format="csv"]', 'href');
    assert.ok(!csv.includes('redundancy'), csv);
  });

  it('the viewer shows what a kept result covers (expand=), Escape closes only that', async (t) => {
    const position = cover.responseItems.findIndex((i) => i.covers > 0);
    const keeper = cover.responseItems[position];
    const expanded = await getJson(`/imagesearch?q=&redundancy=perhost&expand=${keeper.imgDigest}&maxItems=200&fields=${FIELDS}`);
    assert.equal(expanded.responseItems.length, keeper.covers);
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=&redundancy=perhost&view=${position}&img=${keeper.imgDigest}`);
    await page.waitForSelector('#viewer[open] #viewer-covers');
    assert.equal(await page.textContent('#viewer-covers'), `Show what this covers (${keeper.covers})`);
    await page.click('#viewer-covers');
    await page.waitForSelector('#covers[open] #covers-grid li');
    const listed = await page.$$eval('#covers-grid li', (lis) => lis.map((li) => li.dataset.digest));
    assert.deepEqual(listed, expanded.responseItems.map((i) => i.imgDigest));
    assert.ok(!listed.includes(keeper.imgDigest));
    assert.match(await page.textContent('#covers-status'), new RegExp(`^${keeper.covers} results hidden`));
    await page.keyboard.press('Escape');
    await page.waitForSelector('#covers:not([open])', { state: 'attached' });
    assert.equal(await page.isVisible('#viewer[open]'), true);
    // A result that covers nothing has no such button.
    const plain = cover.responseItems.findIndex((i) => i.covers === 0);
    if (plain >= 0) {
      await page.click(plain < position ? '#viewer-prev' : '#viewer-next');
      await page.waitForFunction((d) => new URL(location.href).searchParams.get('img') !== d, keeper.imgDigest);
      const now = new URL(page.url()).searchParams.get('img');
      const item = cover.responseItems.find((i) => i.imgDigest === now);
      if (item && item.covers === 0) assert.equal(await page.locator('#viewer-covers').count(), 0);
    }
  });

  it('a free rule: a bad one is refused with its column, a good one applies', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=`);
    await page.waitForSelector('#results a.tile');
    assert.equal(await page.isVisible('#r-expr'), false, 'the free rule waits for "My own rule…"');
    await page.selectOption('#r-preset', 'custom');
    assert.equal(await page.isVisible('#r-expr'), true);
    await page.fill('#r-expr', 'same(host), newer, phash<=x');
    await page.click('#r-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#r-error').textContent);
    assert.match(await page.textContent('#r-error'), /column 27: /);
    assert.equal(await page.getAttribute('#r-expr', 'aria-invalid'), 'true');
    assert.equal(new URL(page.url()).searchParams.get('redundancy'), null, 'nothing applied');
    // The same rule as the preset, written out: the same page.
    await page.fill('#r-expr', 'same(host),newer');
    await page.press('#r-expr', 'Enter');
    await page.waitForFunction(() => document.querySelector('#r-summary').dataset.expression);
    assert.equal(new URL(page.url()).searchParams.get('redundancy'), 'same(host),newer');
    assert.equal(await page.getAttribute('#r-summary', 'data-hidden'),
      String(cover.redundancy.window - cover.redundancy.kept));
    await page.waitForFunction((n) => document.querySelectorAll('#results a.tile').length >= n,
      Math.min(PAGE, cover.redundancy.kept));
    assert.deepEqual((await tileDigests(page)).slice(0, PAGE), cover.responseItems.map((i) => i.imgDigest));
    assert.equal(await page.inputValue('#r-preset'), 'custom');
    // Back to every result.
    await page.selectOption('#r-preset', '');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('redundancy'));
    await page.waitForFunction(() => !document.querySelector('#r-summary').textContent);
    assert.equal(await page.locator('.cover-badge').count(), 0);
  });

  it('the inline operator in q hides the same results and the control reports it', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=${encodeURIComponent('redundancy:perhost')}&lang=pt`);
    await page.waitForFunction(() => document.querySelector('#r-summary').dataset.hidden);
    assert.equal(await page.getAttribute('#r-summary', 'data-hidden'),
      String(cover.redundancy.window - cover.redundancy.kept));
    assert.match(await page.textContent('#r-summary'), /resultados escondidos por redundância/);
  });
});
