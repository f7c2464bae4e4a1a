// Book images beside web images in chromium (docs/books.md "Indexing"): the 2008 archive.org
// crawl of ../shared/data and a generated Internet Archive book (`strata books warc`) indexed
// into one index, the book added after the crawl and analysed like any image. One search shows
// both kinds, the Source filter splits them, and the viewer shows the book, its author, year
// and page with a link to the book viewer's page.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repo, skipReason, startServer, launchBrowser, openPage, findStrata, findHelper } from './fixture.mjs';

const shared = process.env.STRATA_SHARED || path.resolve(repo, '../shared');
const warc = path.join(shared, 'data/archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz');
const bookItem = findHelper(findStrata(), 'strata_web_book_item', 'STRATA_WEB_BOOK_ITEM');
const reason = (await skipReason())
  || (fs.existsSync(warc) ? null : `${warc} not found (../shared absent)`)
  || (bookItem ? null : 'strata_web_book_item not built');
if (reason) console.log(`# SKIP book browser tests: ${reason}`);

const BOOK_IMAGES = 6;  // the generated item's pictures that pass the default filters
let server, browser;

async function tiles(page) {
  await page.waitForSelector('.tile img, .empty, .status.error');
  return page.locator('.tile');
}

async function api(query) {
  const r = await fetch(`${server.base}/imagesearch?${query}`);
  assert.equal(r.status, 200);
  return r.json();
}

describe('book images in the index', { skip: reason || false }, () => {
  before(async () => {
    const parent = process.env.STRATA_WEB_WORK || os.tmpdir();
    fs.mkdirSync(parent, { recursive: true });
    const work = fs.mkdtempSync(path.join(parent, 'books-'));
    const index = path.join(work, 'index');
    const strata = findStrata();
    execFileSync(bookItem, [path.join(work, 'items')], { stdio: 'pipe' });
    execFileSync(strata, ['books', 'warc', '-o', path.join(work, 'warcs'), '--jobs', '1',
      path.join(work, 'items/strataTestBook')], { stdio: 'pipe' });
    execFileSync(strata, ['index', '--index', index, '--collection', 'archive-org-2008',
      '--no-analysis', '--jobs', '1', warc], { stdio: 'pipe' });
    // The book after the crawl, analysed (thumbnails, pHash; NSFW when the models are here).
    execFileSync(strata, ['index', '--index', index, '--collection', 'books-ia', '--jobs', '1',
      path.join(work, 'warcs/strataTestBook.warc.gz')], { stdio: 'pipe' });
    server = await startServer({ strata, index, sample: work }, ['--safe-search', 'off']);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('the API: one query, both kinds; kind splits them; book images are analysed', async () => {
    const all = await api('q=archive&maxItems=200&more=kind,phash');
    const kinds = all.responseItems.map((i) => i.kind);
    assert.equal(kinds.filter((k) => k === 'book').length, BOOK_IMAGES);
    assert.ok(kinds.filter((k) => k === 'web').length > 10);
    const books = await api('q=archive&maxItems=200&kind=book&more=kind,phash');
    assert.equal(books.totalItems, BOOK_IMAGES);
    for (const item of books.responseItems) assert.match(item.phash, /^[0-9a-f]{16}$/);
    const web = await api('q=archive&maxItems=200&kind=web&more=kind');
    assert.equal(web.totalItems, all.totalItems - BOOK_IMAGES);
    assert.ok(web.responseItems.every((i) => i.kind === 'web'));
    const thumb = await fetch(`${server.base}/thumbnail/all/${books.responseItems[0].imgTstamp}/${books.responseItems[0].imgSrc}`);
    assert.equal(thumb.status, 200);
  });

  it('the Source filter shows books or web pages; the viewer shows the book and its page', async (t) => {
    const page = await openPage(browser, t, { pageSize: 200 });
    // Safe search off: the crawl was indexed without analysis, so none of it is classified.
    await page.goto(`${server.base}/?q=archive&safe=off`);
    const total = await (await tiles(page)).count();
    assert.ok(total > BOOK_IMAGES);
    await page.selectOption('#f-kind', 'book');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('kind') === 'book');
    await page.waitForFunction((n) => document.querySelectorAll('.tile').length === n, BOOK_IMAGES);
    await page.locator('.tile').first().click();
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction(() => document.querySelector('#viewer-dl dt'));
    const text = await page.textContent('#viewer-dl');
    assert.match(text, /A Synthetic Book of Plates/);
    assert.match(text, /Ada Strata/);
    assert.match(text, /1884/);
    assert.match(text, /Harbours, Mills/);
    assert.match(text, /page \d+|unnumbered page/);
    const pageLink = await page.getAttribute('#viewer-page-link', 'href');
    assert.match(pageLink, /^https:\/\/archive\.org\/details\/strataTestBook\/page\/n\d+$/);
    // The book links to its item; "Found on page" and the page row to the viewer's page.
    const bookLink = page.locator('#viewer-dl a[href="https://archive.org/details/strataTestBook"]');
    assert.equal(await bookLink.textContent(), 'A Synthetic Book of Plates');
    const pageLinks = await page.$$eval('#viewer-dl a', (as) => as.map((a) => a.href));
    assert.ok(pageLinks.filter((h) => h === pageLink).length >= 2);
    await page.keyboard.press('Escape');
    await page.selectOption('#f-kind', 'web');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('kind') === 'web');
    await page.waitForFunction((n) => document.querySelectorAll('.tile').length === n, total - BOOK_IMAGES);
  });
});
