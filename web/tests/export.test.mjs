// The results page's Export menu in headless chromium against `strata serve` (docs/ui.md):
// one link per format, each the search's own parameters, and the CSV it downloads holds every
// result of the search shown.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, prepareData, startServer, launchBrowser, openPage } from './fixture.mjs';

const reason = await skipReason();
if (reason) console.log(`# SKIP export browser tests: ${reason}`);

let data, server, browser;

describe('export menu', { skip: reason || false }, () => {
  before(async () => {
    data = prepareData();
    server = await startServer(data);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  it('offers every format and downloads the whole result set', async (t) => {
    const page = await openPage(browser, t);
    await page.goto(`${server.base}/?q=`);
    await page.waitForSelector('.status .export');
    const total = Number(await page.getAttribute('.status .count', 'data-total'));
    await page.click('.status .export summary');
    const links = await page.$$eval('.export a', (as) => as.map((a) => [a.dataset.format, a.getAttribute('href')]));
    assert.deepEqual(links.map(([f]) => f), ['csv', 'jsonl', 'warc', 'zip', 'wacz']);
    for (const [format, href] of links) {
      const p = new URLSearchParams(href.split('?')[1]);
      assert.equal(p.get('format'), format);
      assert.equal(p.get('offset'), null);
    }
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.export a[data-format="csv"]')]);
    assert.match(download.suggestedFilename(), /^strata-export-\d{14}\.csv$/);
    const csv = await (await fetch(`${server.base}${links[0][1]}`)).text();
    assert.equal(csv.trim().split('\r\n').length, total + 1, 'a header and one row per result');
  });
});
