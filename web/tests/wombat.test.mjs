// Client-side rewriting in chromium: a purpose-built WARC (written below) holds a 2008 page
// whose script builds URLs at run time, in forms the server's JavaScript pass cannot see
// ('http:' + '//example.com/' + 'x.png'): an image made with createElement, an image written
// with document.write, a fetch() of JSON, a link whose script sets location.href, and a
// dynamic import() of a live-web script that wombat does not rewrite; and scripts that read
// the page's location, which the server wraps so they see the archived URL. Served with `strata serve --replay-port`, the page runs on the
// replay origin under wombat (docs/replay.md): the built image and the written one load from
// the archive (their im_ URLs are wombat's), the fetch gets the archived JSON, the import is
// refused by the replay origin's Content-Security-Policy, every request to any other origin
// fails the test, the banner shows the served capture's date, and the page can reach neither
// the search interface's origin nor its API.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { repo, skipReason, launchBrowser, openRecorded, startWithReplayOrigin, workDir, indexArchives } from './fixture.mjs';

const wombatJs = path.join(repo, 'web/node_modules/@webrecorder/wombat/dist/wombat.js');
const reason = (await skipReason()) || (fs.existsSync(wombatJs) ? null : `${wombatJs} not found (run scripts/setup-web)`);
if (reason) console.log(`# SKIP wombat browser tests: ${reason}`);

const TS = '20080102030405';
const PAGE = 'http://example.com/built.html';

// A solid-colour RGB PNG of w x h.
function png(w, h, [r, g, b]) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const head = Buffer.alloc(13);
  head.writeUInt32BE(w, 0);
  head.writeUInt32BE(h, 4);
  head.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => [r, g, b]).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: h }, () => row)));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', head),
    chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

// One WARC response record.
function response(url, type, payload, n) {
  const http = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\n` +
    `Content-Length: ${payload.length}\r\n\r\n`, 'latin1'), payload]);
  const head = `WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\n` +
    `WARC-Date: 2008-01-02T03:04:05Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-00000000000${n}>\r\n` +
    `Content-Type: application/http; msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), http, Buffer.from('\r\n\r\n', 'latin1')]);
}

const html = `<!doctype html>
<html><head><title>URLs built at run time</title></head>
<body>
<h1>A page whose script builds its URLs</h1>
<img id="static" src="http://example.com/static.png" alt="a static image of the page">
<p id="fetched">not fetched</p>
<p id="where">unknown</p>
<script>
const route = { path: location.pathname, host: location.host };
</script>
<script>
document.getElementById('where').textContent = [route.path, route.host, window.location.href].join(' ');
</script>
<p><a id="next" href="#" onclick="location.href = 'http:' + '//example.com/' + 'next.html'; return false">next page</a></p>
<script>
var host = 'http:' + '//example.com/';
var built = document.createElement('img');
built.id = 'built';
built.src = host + 'x.png';
document.body.appendChild(built);
document.write('<img id="written" src="' + host + 'w.png">');
fetch(host + 'data.json').then(function (r) { return r.json(); })
  .then(function (j) { document.getElementById('fetched').textContent = j.archived; });
import('http:' + '//example.org/' + 'escape.js').catch(function () {});
</script>
</body></html>
`;

let server, browser, replayBase;

describe('client-side rewriting with wombat on the replay origin', { skip: reason || false }, () => {
  before(async () => {
    const work = workDir('wombat');
    const warc = path.join(work, 'built.warc');
    fs.writeFileSync(warc, Buffer.concat([
      response(PAGE, 'text/html; charset=utf-8', Buffer.from(html), 1),
      response('http://example.com/static.png', 'image/png', png(160, 120, [40, 90, 200]), 2),
      response('http://example.com/x.png', 'image/png', png(64, 48, [200, 40, 40]), 3),
      response('http://example.com/w.png', 'image/png', png(48, 32, [40, 160, 60]), 4),
      response('http://example.com/data.json', 'application/json',
        Buffer.from(JSON.stringify({ archived: 'archived in 2008' })), 5),
      response('http://example.com/next.html', 'text/html',
        Buffer.from('<!doctype html><html><head><title>Next</title></head><body><h1 id="next-page">The next page</h1></body></html>'), 6),
    ]));
    const index = indexArchives(path.join(work, 'index'), 'built', [warc]);
    ({ server, replayBase } = await startWithReplayOrigin(index, work));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });

  // Opens `url`; requests to other origins than the server's two are refused and recorded.
  const open = (url) => openRecorded(browser, url, [new URL(server.base).origin, new URL(replayBase).origin]);

  it('URLs the page script builds load from the archive, rewritten by wombat; nothing leaves the server', async () => {
    // Opened as the interface links it: from the interface's origin, by a partial timestamp.
    const { context, page, res, leaks, responses, refusals } = await open(`${server.base}/wayback/2008/${PAGE}`);
    assert.equal(res.status(), 200);
    assert.equal(page.url(), `${replayBase}/wayback/${TS}/${PAGE}`);
    await page.waitForFunction(() => document.getElementById('fetched').textContent !== 'not fetched'
      && [...document.images].every((i) => i.complete), null, { timeout: 10000 });
    assert.equal(await page.textContent('#fetched'), 'archived in 2008');
    // The page's scripts, wrapped by the server for wombat, see the archived page's location
    // (as a client-side router reads it), and a top-level const of one script is seen by the next.
    assert.equal(await page.textContent('#where'), `/built.html example.com ${PAGE}`);
    const sizes = await page.evaluate(() => Object.fromEntries([...document.images].map((i) => [i.id, [i.naturalWidth, i.naturalHeight]])));
    assert.deepEqual(sizes, { static: [160, 120], built: [64, 48], written: [48, 32] });
    // wombat's own modifier (im_ for an image's src): the server's JavaScript pass never saw them.
    const got = (suffix) => responses.find((r) => r.url === `${replayBase}/wayback/${TS}${suffix}` && r.status === 200);
    assert.match(got('im_/http://example.com/x.png')?.type || '', /^image\/png/, JSON.stringify(responses, null, 1));
    assert.match(got('im_/http://example.com/w.png')?.type || '', /^image\/png/, JSON.stringify(responses, null, 1));
    assert.ok(responses.some((r) => r.url.startsWith(`${replayBase}/wayback/${TS}`) && r.url.endsWith('/http://example.com/data.json') && r.status === 200),
      JSON.stringify(responses, null, 1));
    // The one URL wombat leaves alone is refused by the policy, never requested.
    assert.ok(refusals.some((t) => t.includes('http://example.org/escape.js')), `refusals: ${refusals.join('\n')}`);
    // The banner shows the served capture's date.
    const date = page.locator('#strata-replay-date time');
    assert.equal(await date.getAttribute('datetime'), '2008-01-02T03:04:05Z');
    assert.equal(await date.textContent(), '02 Jan 2008 03:04:05 UTC');
    await context.close();
    assert.deepEqual(leaks, [], 'requests left the server');
  });

  it('a script that sends the page to a URL it built stays in the archive', async () => {
    const { context, page, leaks } = await open(`${replayBase}/wayback/${TS}/${PAGE}`);
    await Promise.all([page.waitForURL(`${replayBase}/wayback/${TS}/http://example.com/next.html`), page.click('#next')]);
    assert.equal(await page.textContent('#next-page'), 'The next page');
    await context.close();
    assert.deepEqual(leaks, [], 'requests left the server');
  });

  it("the viewer lists the image's captures and its page's, each opening its replay", async () => {
    const { context, page, leaks } = await open(`${server.base}/?q=static&safe=off`);
    await page.locator('.tile').first().click();
    await page.waitForSelector('#viewer[open]');
    const lists = await page.$$eval('#viewer a[href^="/wayback/*/"]', (as) => as.map((a) => a.getAttribute('href')));
    const image = 'http://example.com/static.png';
    assert.deepEqual(lists.sort(), [`/wayback/*/${PAGE}`, `/wayback/*/${image}`]);
    for (const [url, type] of [[image, /^image\/png/], [PAGE, /^text\/html/]]) {
      await page.goto(`${server.base}/wayback/*/${url}`);
      const [res] = await Promise.all([page.waitForResponse(`${replayBase}/wayback/${TS}/${url}`), page.click('li a >> nth=0')]);
      assert.equal(res.status(), 200);
      assert.match(res.headers()['content-type'], type);
      await page.waitForURL(`${replayBase}/wayback/${TS}/${url}`);
    }
    await context.close();
    assert.deepEqual(leaks, []);
  });

  it('archived scripts run on an origin of their own and cannot reach the search interface', async () => {
    const { context, page, leaks } = await open(`${replayBase}/wayback/${TS}/${PAGE}`);
    // (window.origin is wombat's: the archived page's own.)
    assert.equal(new URL(page.url()).origin, new URL(replayBase).origin);
    assert.notEqual(new URL(replayBase).origin, new URL(server.base).origin);
    // A script that escapes wombat (a dynamic import is not rewritten) cannot load the
    // interface's code: the policy allows the replay origin alone.
    const ui = await page.evaluate((u) => import(u).then(() => 'reached', () => 'refused'), `${server.base}/app.js`);
    assert.equal(ui, 'refused');
    await context.close();
    assert.deepEqual(leaks, []);
    // The replay origin serves the archive and wombat only: no interface, no API.
    for (const p of ['/', '/imagesearch?q=example', '/app.js']) {
      const r = await fetch(`${replayBase}${p}`);
      assert.equal(r.status, 404, p);
    }
    const wombat = await fetch(`${replayBase}/_strata/wombat.js`);
    assert.equal(wombat.status, 200);
    assert.match(wombat.headers.get('content-type'), /^text\/javascript/);
    assert.match(await wombat.text(), /_WBWombatInit/);
    // The API's page links, which the interface opens, lead to the replay origin.
    const items = await (await fetch(`${server.base}/imagesearch?q=static&safeSearch=off`)).json();
    const link = items.responseItems?.[0]?.pageLinkToArchive;
    assert.ok(link, JSON.stringify(items).slice(0, 500));
    const hop = await fetch(link, { redirect: 'manual' });
    assert.equal(hop.status, 302);
    assert.equal(hop.headers.get('location'), `${replayBase}${link.slice(server.base.length)}`);
  });
});
