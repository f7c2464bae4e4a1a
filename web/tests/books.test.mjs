// Book images beside web images in chromium (docs/books.md "Indexing"): the 2008 archive.org
// crawl of ../shared/data and a generated Internet Archive book (`strata books warc`) indexed
// into one index, the book added after the crawl and analysed like any image. One search shows
// both kinds, the Source filter splits them, and the viewer shows the book, its author, year
// and page with a link to the book viewer's page. Two EPUBs (alice.epub, English, no date;
// page-blanche.epub, French, 2012) are indexed beside them: the book filters (language,
// publication years) shown while the Source is Books keep the books they name, and an EPUB
// image's viewer shows its chapter, archived, opened in replay.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repo, skipReason, startServer, launchBrowser, openPage, findStrata, findHelper, workDir, indexArchives } from './fixture.mjs';

const shared = process.env.STRATA_SHARED || path.resolve(repo, '../shared');
const warc = path.join(shared, 'data/archives/archivesunleashed__aut/src/test/resources/warc/example.warc.gz');
const epubs = ['futurepress__epub.js/test/fixtures/alice.epub', 'IDPF__epub3-samples/30/page-blanche.epub']
  .map((e) => path.join(shared, 'data/books', e));
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
    const work = workDir('books');
    const index = path.join(work, 'index');
    const strata = findStrata();
    execFileSync(bookItem, [path.join(work, 'items')], { stdio: 'pipe' });
    execFileSync(strata, ['books', 'warc', '-o', path.join(work, 'warcs'), '--jobs', '1',
      path.join(work, 'items/strataTestBook')], { stdio: 'pipe' });
    indexArchives(index, 'archive-org-2008', [warc]);
    // The book after the crawl, analysed (thumbnails, pHash; NSFW when the models are here).
    indexArchives(index, 'books-ia', [path.join(work, 'warcs/strataTestBook.warc.gz')], []);
    execFileSync(strata, ['books', 'warc', '-o', path.join(work, 'epubs'), '--jobs', '1', ...epubs],
      { stdio: 'pipe' });
    indexArchives(index, 'books-epub',
      [path.join(work, 'epubs/alice.warc.gz'), path.join(work, 'epubs/page-blanche.warc.gz')]);
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

  it('the API: EPUB images are book images on archived chapters; language and years filter them', async () => {
    const epub = await api('q=&maxItems=200&collection=books-epub&decorative=show&collapse=off&more=kind,bookFormat,language,pubYear,bookChapter');
    assert.ok(epub.totalItems >= 30);
    assert.ok(epub.responseItems.every((i) => i.kind === 'book' && i.bookFormat === 'epub'));
    const fr = await api('q=&maxItems=200&language=fr&decorative=show&collapse=off&more=bookTitle');
    assert.equal(fr.totalItems, 9);  // page-blanche.epub's nine pages
    assert.ok(fr.responseItems.every((i) => i.bookTitle === 'Page Blanche'));
    const old = await api('q=&maxItems=200&pubYearFrom=1800&pubYearTo=1900&decorative=show&more=bookId');
    assert.equal(old.totalItems, BOOK_IMAGES);  // the generated item, 1884
    assert.ok(old.responseItems.every((i) => i.bookId === 'strataTestBook'));
    const bad = await fetch(`${server.base}/imagesearch?pubYearFrom=1900&pubYearTo=1800`);
    assert.equal(bad.status, 400);
    // The chapter is replayed (an archived page, not its book-chapter metadata record that
    // shares its URL and date); its image too.
    const chapter = await fetch(fr.responseItems[0].pageLinkToArchive);
    assert.equal(chapter.status, 200);
    assert.match(chapter.headers.get('content-type'), /html/);
    assert.equal((await fetch(fr.responseItems[0].imgLinkToArchive)).status, 200);
  });

  it('the book filters show with Source Books and keep the language and years asked for', async (t) => {
    const page = await openPage(browser, t, { pageSize: 200 });
    await page.goto(`${server.base}/?q=&safe=off&decorative=show`);
    await tiles(page);
    assert.equal(await page.isVisible('#book-filters'), false);
    await page.selectOption('#f-kind', 'book');
    await page.waitForSelector('#book-filters', { state: 'visible' });
    await page.fill('#f-booklang', 'fr');
    await page.press('#f-booklang', 'Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('booklang') === 'fr');
    await page.waitForFunction(() => document.querySelectorAll('.tile').length === 9);
    // An EPUB image: the book (no archive.org item) and its chapter, opened in replay.
    await page.locator('.tile').first().click();
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction(() => document.querySelector('#viewer-dl dt'));
    const text = await page.textContent('#viewer-dl');
    assert.match(text, /Page Blanche/);
    assert.match(text, /Chapter/);
    const links = await page.$$eval('#viewer-dl a', (as) => as.map((a) => a.href));
    assert.ok(links.some((h) => /\/wayback\/\d{14}\/https:\/\/code-google-com-epub-samples-page-blanche\.epub\.invalid\//.test(h)), links.join(' '));
    assert.ok(!links.some((h) => h.startsWith('https://archive.org/')));
    await page.keyboard.press('Escape');
    await page.fill('#f-booklang', '');
    await page.press('#f-booklang', 'Enter');
    await page.fill('#f-pubfrom', '1800');
    await page.press('#f-pubfrom', 'Enter');
    await page.fill('#f-pubto', '1900');
    await page.press('#f-pubto', 'Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('pubto') === '1900');
    await page.waitForFunction((n) => document.querySelectorAll('.tile').length === n, BOOK_IMAGES);
    // Web pages: the book filters go away, from the page and from the URL.
    await page.selectOption('#f-kind', 'web');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('kind') === 'web');
    assert.equal(await page.isVisible('#book-filters'), false);
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get('pubfrom'), null);
    assert.equal(params.get('pubto'), null);
  });
});
