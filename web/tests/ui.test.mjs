// End-to-end tests of the search page in headless chromium against `strata serve`.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { skipReason, prepareData, startServer, launchBrowser, openPage, screenshotsDir, DECORATIVE_WORD } from './fixture.mjs';

const reason = await skipReason();
if (reason) console.log(`# SKIP web UI browser tests: ${reason}`);
const require = createRequire(import.meta.url);

let data, server, browser, api, query, queryTotal;
const shots = process.env.STRATA_WEB_SCREENSHOTS !== '0';

const newPage = (t, options) => openPage(browser, t, options);
const digits = (s) => Number(String(s).replace(/\D/g, ''));
async function shot(page, name) {
  if (!shots) return;
  fs.mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`) });
}
async function results(page) {
  await page.waitForSelector('.tile img, .empty, .status.error');
  return page.locator('.tile');
}
async function imagesLoaded(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('.tile img')].slice(0, 12)
    .every((i) => i.complete), null, { timeout: 10000 }).catch(() => {});
}

describe('search page', { skip: reason || false }, () => {
  before(async () => {
    data = prepareData();
    server = await startServer(data);
    browser = await launchBrowser();
    api = async (params) => (await fetch(`${server.base}/imagesearch?${new URLSearchParams(params)}`)).json();
    // A query of the sample's ground truth that finds several images.
    const queries = fs.readFileSync(path.join(data.sample, 'truth/queries.jsonl'), 'utf8')
      .split('\n').filter(Boolean).map((l) => JSON.parse(l).query);
    for (const q of queries) {
      const r = await api({ q, maxItems: 0 });
      if (r.totalItems >= 3) { query = q; queryTotal = r.totalItems; break; }
    }
    assert.ok(query, 'a ground-truth query with results');
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('serves the page with caching headers and no external resources', async () => {
    const r = await fetch(`${server.base}/`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /text\/html/);
    assert.equal(r.headers.get('cache-control'), 'no-cache');
    const etag = r.headers.get('etag');
    assert.ok(etag);
    assert.match(r.headers.get('content-security-policy'), /default-src 'self'/);
    const again = await fetch(`${server.base}/app.js`, { headers: { 'If-None-Match': (await fetch(`${server.base}/app.js`)).headers.get('etag') } });
    assert.equal(again.status, 304);
    const html = await r.text();
    assert.doesNotMatch(html, /https?:\/\/(?!127)/, 'no external URLs');
    for (const p of ['/%2e%2e/%2e%2e/CMakeLists.txt', '/..%2f..%2fCMakeLists.txt', '/.gitignore'])
      assert.ok((await fetch(`${server.base}${p}`)).status >= 400, p);
    assert.equal((await fetch(`${server.base}/missing.js`)).status, 404);
  });

  it('first screen shows example queries', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/`);
    await page.waitForSelector('#collections li');  // the index's summary came (summary.js)
    assert.ok(await page.locator('#examples a').count() >= 4);
    assert.equal(await page.isVisible('#intro'), true);
    await shot(page, 'home');
    // "Browse all images" lists everything.
    await page.click('#examples .browse a');
    const tiles = await results(page);
    assert.ok(await tiles.count() > 0);
    assert.match(page.url(), /\?q=$/);
  });

  it('searches: justified grid, count and time, alt text on every thumbnail', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/`);
    await page.fill('#q', query);
    await page.press('#q', 'Enter');
    const tiles = await results(page);
    assert.equal(await tiles.count(), Math.min(queryTotal, 60));
    assert.equal(digits((await page.textContent('#status .count')).split('·')[0]), queryTotal);
    assert.match(await page.textContent('#status .count'), /in \d+\.\d\d s/);
    assert.equal(new URL(page.url()).searchParams.get('q'), query);
    const alts = await page.$$eval('.tile img', (imgs) => imgs.map((i) => i.alt));
    assert.ok(alts.every((a) => a.trim().length > 0), 'every thumbnail has alt text');
    // Aspect ratios are kept: tile width / height ≈ image width / height.
    const ratios = await page.$$eval('.tile', (ts) => ts.map((a) => {
      const img = a.querySelector('img');
      return [a.offsetWidth / a.offsetHeight, img.width / img.height];
    }));
    for (const [shown, real] of ratios) {
      if (real > 0.25 && real < 5) assert.ok(Math.abs(shown / real - 1) < 0.08, `aspect ${shown} vs ${real}`);
    }
    await imagesLoaded(page);
    await shot(page, 'results');
  });

  it('loads more results on scroll', async (t) => {
    const page = await newPage(t, { pageSize: 8, viewport: { width: 1000, height: 600 } });
    const total = (await api({ q: '', maxItems: 0 })).totalItems;
    assert.ok(total > 16);
    await page.goto(`${server.base}/?q=`);
    await results(page);
    const first = await page.locator('.tile').count();
    assert.ok(first >= 8);
    // Scroll until two more pages arrived; the deadline, not a count of tries, bounds it, so a
    // loaded machine (slower page fetches) does not fail the test.
    for (const end = Date.now() + 30000; Date.now() < end && await page.locator('.tile').count() < first + 16;) {
      await page.mouse.wheel(0, 5000);
      await page.waitForTimeout(300);
    }
    const after = await page.locator('.tile').count();
    assert.ok(after >= first + 16, `${first} → ${after}`);
    const digests = await page.$$eval('.tile', (ts) => ts.map((a) => a.href));
    assert.equal(new Set(digests).size, digests.length, 'no duplicates across pages');
  });

  it('opens the viewer; keyboard previous/next; Escape closes; back/forward', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=${encodeURIComponent(query)}`);
    await results(page);
    // Keyboard only: Tab to the second thumbnail and press Enter.
    await page.locator('.tile').nth(1).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#viewer[open]');
    assert.equal(new URL(page.url()).searchParams.get('view'), '1');
    await page.waitForFunction(() => document.querySelector('#viewer-dl dt'));
    const text = await page.textContent('#viewer');
    assert.match(text, /Captured/);
    assert.match(text, /Dimensions/);
    assert.match(text, /Collections/);
    assert.match(text, /webtest/);
    assert.ok(await page.getAttribute('#viewer-page-link', 'href'));
    assert.match(await page.getAttribute('#viewer-img-link', 'href'), /\/wayback\/\d{14}im_\//);
    await page.waitForFunction(() => document.querySelector('#viewer-bytes')?.textContent.match(/B$/));
    await page.waitForFunction(() => document.querySelector('#viewer-img').complete);
    await shot(page, 'viewer');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('view') === '2');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('view') === '0');
    assert.equal(await page.isDisabled('#viewer-prev'), true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#viewer:not([open])', { state: 'attached' });
    assert.equal(new URL(page.url()).searchParams.get('view'), null);
    // Focus returns to the grid.
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('tile')), true);
    await page.goBack();
    await page.waitForSelector('#viewer[open]');
    await page.goForward();
    await page.waitForSelector('#viewer:not([open])', { state: 'attached' });
  });

  it('a shared viewer URL reopens the same image', async (t) => {
    const r = await api({ q: query, offset: 2, maxItems: 1 });
    const item = r.responseItems[0];
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=${encodeURIComponent(query)}&view=2&img=${item.imgDigest}`);
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction((src) => document.querySelector('#viewer-img').src.endsWith(src), item.imgSrc);
    assert.match(await page.textContent('#viewer-position'), /3 of/);
  });

  it('near-duplicates: one tile per group with "+N similar"; the viewer lists the group', async (t) => {
    // A result standing for several copies of one picture, among the first 24 of a query.
    const fields = 'imgDigest,collapsedImages,groupId,groupSize';
    const queries = fs.readFileSync(path.join(data.sample, 'truth/queries.jsonl'), 'utf8')
      .split('\n').filter(Boolean).map((l) => JSON.parse(l).query);
    let q = null;
    let k = -1;
    let item = null;
    for (const candidate of ['', ...queries]) {
      const items = (await api({ q: candidate, maxItems: 24, fields })).responseItems;
      k = items.findIndex((i) => i.collapsedImages > 0);
      if (k >= 0) { q = candidate; item = items[k]; break; }
    }
    assert.ok(item, 'the sample has near-duplicates collapsed in some query\'s first results');
    const digests = (r) => r.responseItems.map((i) => i.imgDigest);
    // Collapsed: no other member of the group on the page; off: they are all there.
    // As the viewer asks: every member safe search shows, decorative or not.
    const members = await api({ q: `group:${item.groupId}`, maxItems: 200, fields, decorative: 'show' });
    assert.ok(members.totalItems >= 2 && members.totalItems <= item.groupSize);
    const collapsed = digests(await api({ q, maxItems: 200, fields }));
    assert.equal(collapsed.filter((d) => digests(members).includes(d)).length, 1);
    const page = await newPage(t, { pageSize: 24 });
    await page.goto(`${server.base}/?q=${encodeURIComponent(q)}`);
    await results(page);
    const tile = page.locator('.tile').nth(k);
    assert.equal(await tile.locator('.similar-badge').textContent(), `+${item.collapsedImages} similar`);
    // The first page's badges are the API's (more pages may have loaded below it).
    const badges = await page.evaluate(() => [...document.querySelectorAll('.tile')].slice(0, 24)
      .map((e) => e.querySelector('.similar-badge')?.textContent || ''));
    assert.deepEqual(badges, (await api({ q, maxItems: 24, fields })).responseItems
      .map((i) => (i.collapsedImages > 0 ? `+${i.collapsedImages} similar` : '')));
    await tile.click();
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction((n) => document.querySelectorAll('#viewer-group .group-member').length === n,
      members.responseItems.length);
    assert.match(await page.textContent('#viewer-group'), new RegExp(`${members.totalItems} copies`));
    assert.equal(await page.getAttribute(`#viewer-group [data-digest="${item.imgDigest}"]`, 'aria-current'), 'true');
    await shot(page, 'viewer-group');
  });

  it('filters: size, type, site, collection, dates — each in the URL and applied', async (t) => {
    const page = await newPage(t);
    const all = await api({ q: '', maxItems: 50, fields: 'imgSrc,pageURL,collection,imgMimeType' });
    const host = new URL(all.responseItems[0].pageURL).hostname;
    const coll = all.responseItems[0].collection.find((c) => c !== 'webtest');
    const years = Object.keys(all.years).sort();
    const checks = [
      ['#f-size', 'select', 'lg', { size: 'lg' }, { size: 'lg' }],
      ['#f-type', 'select', 'png', { type: 'png' }, { type: 'png' }],
      ['#f-site', 'fill', host, { site: host }, { siteSearch: host }],
      ['#f-collection', 'select', coll, { collection: coll }, { collection: coll }],
      ['#f-from', 'fill', years[years.length - 1], { from: years[years.length - 1] }, { from: years[years.length - 1] }],
    ];
    for (const [sel, how, value, urlParams, apiParams] of checks) {
      await page.goto(`${server.base}/?q=`);
      await results(page);
      if (how === 'select') {
        // The collection's choices come with the index's summary.
        await page.waitForSelector(`${sel} option[value="${value}"]`, { state: 'attached' });
        await page.selectOption(sel, value);
      }
      else { await page.fill(sel, value); await page.press(sel, 'Enter'); }
      await page.waitForFunction((p) => {
        const u = new URL(location.href).searchParams;
        return Object.entries(p).every(([k, v]) => u.get(k) === v);
      }, urlParams, { timeout: 30000 }).catch(() => assert.fail(`${sel}: URL ${page.url()}`));
      const expected = (await api({ q: '', maxItems: 0, ...apiParams })).totalItems;
      if (expected === 0) {
        await page.waitForSelector('.empty');
      } else {
        await page.waitForFunction((n) => {
          const c = document.querySelector('#status .count');
          return c && Number(c.dataset.total) === n;
        }, expected, { timeout: 30000 }).catch(async () => assert.fail(`${sel}: expected ${expected}, `
          + `shown ${await page.textContent('#status')}`));
      }
    }
    // Reset clears them all.
    await page.goto(`${server.base}/?q=&size=lg&type=png`);
    await results(page);
    await page.click('#f-reset');
    await page.waitForFunction(() => !location.search.includes('size='));
    assert.equal(await page.inputValue('#f-size'), '');
  });

  it('advanced search maps to the API syntax', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/`);
    await page.click('#advanced summary');
    const [w1, w2] = query.split(' ');
    await page.fill('#advanced-form [name=all]', w1);
    await page.fill('#advanced-form [name=none]', w2 || 'zzz');
    await page.click('#advanced-form button[type=submit]');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('q'));
    assert.equal(new URL(page.url()).searchParams.get('q'), `"${w1}" -${w2 || 'zzz'}`);
    await results(page);
  });

  it('timeline: bars per year from the facet; brushing sets the date range', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=`);
    await results(page);
    await page.waitForSelector('#timeline .bar');
    const bars = page.locator('#timeline .bar');
    const n = await bars.count();
    assert.ok(n >= 3, `${n} bars`);
    const y0 = await bars.nth(0).getAttribute('data-year');
    const y2 = await bars.nth(2).getAttribute('data-year');
    const a = await bars.nth(0).boundingBox();
    const b = await bars.nth(2).boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(([f, to]) => {
      const u = new URL(location.href).searchParams;
      return u.get('from') === f && u.get('to') === to;
    }, [y0, y2]);
    assert.equal(await page.inputValue('#f-from'), y0);
    const expected = (await api({ q: '', from: y0, to: y2, maxItems: 0 })).totalItems;
    await page.waitForFunction((n2) => {
      const c = document.querySelector('#status .count');
      return c && Number(c.dataset.total) === n2;
    }, expected);
    // All years remain visible on the timeline, the chosen ones highlighted.
    assert.equal(await page.locator('#timeline .bar').count(), n);
    assert.equal(await page.locator('#timeline .bar.selected').count(), +y2 - +y0 + 1);
    await shot(page, 'timeline');
    // Keyboard: Enter on a bar selects that year.
    await page.locator('#timeline .bar').nth(1).focus();
    await page.keyboard.press('Enter');
    const y1 = await bars.nth(1).getAttribute('data-year');
    await page.waitForFunction((y) => new URL(location.href).searchParams.get('from') === y
      && new URL(location.href).searchParams.get('to') === y, y1);
  });

  it('language: browser default, switchable, kept in the URL', async (t) => {
    const page = await newPage(t, { locale: 'pt-PT' });
    await page.goto(`${server.base}/?q=${encodeURIComponent(query)}`);
    await results(page);
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-PT');
    assert.equal((await page.textContent('#search-form button')).trim(), 'Pesquisar');
    assert.match(await page.textContent('#status .count'), /imagens/);
    await shot(page, 'results-pt');
    await page.click('#lang-switch');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.equal((await page.textContent('#search-form button')).trim(), 'Search');
    assert.equal(new URL(page.url()).searchParams.get('lang'), 'en');
    const en = await newPage(t, { locale: 'en-US' });
    await en.goto(`${server.base}/?lang=pt`);
    assert.equal(await en.getAttribute('html', 'lang'), 'pt-PT');
  });

  it('safe search: on by default, hides NSFW images (thumbnails too); off shows them', async (t) => {
    if (!data.nsfwId) return t.skip('strata_web_moderate not built: no NSFW image in the index');
    const r = await api({ q: data.nsfwAlt, maxItems: 200, safeSearch: 'off', fields: 'imgDigest,imgSrc,imgTstamp' });
    const item = r.responseItems.find((i) => i.imgDigest === data.nsfwId);
    assert.ok(item, 'the NSFW image is found with safe search off');
    const thumb = (mode) => fetch(`${server.base}/thumbnail/${mode}/${item.imgTstamp}/${item.imgSrc}`);
    assert.equal((await thumb('safe')).status, 403);
    assert.equal((await thumb('all')).status, 200);
    const page = await newPage(t);
    const requested = [];
    page.on('request', (req) => requested.push(req.url()));
    await page.goto(`${server.base}/?q=${encodeURIComponent(data.nsfwAlt)}`);
    await results(page);
    assert.equal(await page.isChecked('#f-safe'), true);
    const hrefs = () => page.$$eval('.tile', (ts) => ts.map((a) => new URL(a.href).searchParams.get('img')));
    assert.ok(!(await hrefs()).includes(data.nsfwId), 'hidden under safe search');
    assert.ok(!requested.some((u) => u.includes(item.imgSrc)), 'its thumbnail is never requested');
    await page.uncheck('#f-safe');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('safe') === 'off');
    await page.waitForFunction((id) => [...document.querySelectorAll('.tile')]
      .some((a) => new URL(a.href).searchParams.get('img') === id), data.nsfwId);
    await page.check('#f-safe');
    await page.waitForFunction((id) => ![...document.querySelectorAll('.tile')]
      .some((a) => new URL(a.href).searchParams.get('img') === id), data.nsfwId);
  });

  it('decorative images: hidden by default, shown by the filter and its suggestion', async (t) => {
    const page = await newPage(t);
    const asked = [];
    page.on('request', (req) => { if (req.url().includes('/imagesearch?')) asked.push(new URL(req.url())); });
    await page.goto(`${server.base}/?q=${DECORATIVE_WORD}&safe=off`);
    await page.waitForSelector('.empty');
    assert.equal(await page.isChecked('#f-decorative'), false);
    assert.equal(asked.at(-1).searchParams.get('decorative'), null);
    await page.click('.empty button:has-text("Show decorative images")');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('decorative') === 'show');
    await page.waitForSelector('.tile');
    assert.equal(await page.locator('.tile').count(), 1);
    assert.equal(await page.isChecked('#f-decorative'), true);
    assert.equal(asked.at(-1).searchParams.get('decorative'), 'show');
    await page.uncheck('#f-decorative');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('decorative'));
    await page.waitForSelector('.empty');
    await page.check('#f-decorative');
    await page.waitForSelector('.tile');
    assert.equal(await page.locator('.tile').count(), 1);
  });

  it('no results: message with suggestions', async (t) => {
    const page = await newPage(t);
    await page.goto(`${server.base}/?q=qqqzzzxxyy&size=sm&from=2001&to=2002`);
    await page.waitForSelector('.empty');
    assert.match(await page.textContent('.empty'), /No images found/);
    assert.ok(await page.locator('.empty button', { hasText: 'Remove all filters' }).count() === 1);
    assert.ok(await page.locator('.empty button', { hasText: 'Search all years' }).count() === 1);
    await shot(page, 'no-results');
    await page.click('.empty button:has-text("Remove all filters")');
    await page.waitForFunction(() => !location.search.includes('size='));
  });

  it('API error and slow network states', async (t) => {
    const page = await newPage(t);
    let fail = true;
    await page.route('**/imagesearch?**', (route) => (fail
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"message":"boom"}}' })
      : route.continue()));
    await page.goto(`${server.base}/?q=${encodeURIComponent(query)}`);
    await page.waitForSelector('.status.error [role=alert]');
    fail = false;
    await page.click('.status.error button');
    await results(page);
    assert.ok(await page.locator('.tile').count() > 0);
    const slow = await newPage(t);
    await slow.route('**/imagesearch?**', async (route) => {
      await new Promise((r) => setTimeout(r, 2500));
      await route.continue();
    });
    await slow.goto(`${server.base}/?q=${encodeURIComponent(query)}`);
    await slow.waitForFunction(() => /slow/.test(document.querySelector('#status').textContent));
    await results(slow);
  });

  it('works on a phone', async (t) => {
    const page = await newPage(t, { viewport: { width: 390, height: 844 } });
    await page.goto(`${server.base}/?q=`);
    await results(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.equal(overflow, false, 'no horizontal scrolling');
    assert.equal(await page.isVisible('#filters'), false);
    await page.click('#filters-toggle');
    assert.equal(await page.isVisible('#f-size'), true);
    await imagesLoaded(page);
    await shot(page, 'phone');
    await page.click('#filters-toggle');
    await page.locator('.tile').first().click();
    await page.waitForSelector('#viewer[open]');
    await page.waitForFunction(() => document.querySelector('#viewer-dl dt'));
    await shot(page, 'phone-viewer');
  });

  it('axe-core: no serious or critical accessibility violations', async (t) => {
    const axe = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const page = await newPage(t, { bypassCSP: true });  // axe is injected inline
    const check = async (what) => {
      await page.addScriptTag({ content: axe });
      const res = await page.evaluate(() => window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }));
      const bad = res.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
      assert.deepEqual(bad.map((v) => `${what}: ${v.id} ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`), []);
    };
    await page.goto(`${server.base}/`);
    await page.waitForSelector('#examples a');
    await check('home');
    await page.goto(`${server.base}/?q=${encodeURIComponent(query)}`);
    await results(page);
    await page.waitForSelector('#timeline .bar');
    await check('results');
    await page.locator('.tile').first().click();
    await page.waitForFunction(() => document.querySelector('#viewer-dl dt'));
    await check('viewer');
    await page.goto(`${server.base}/?q=qqqzzzxxyy`);
    await page.waitForSelector('.empty');
    await check('no results');
  });
});
