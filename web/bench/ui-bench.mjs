// UI benchmark (not a pass/fail test): first render and query-to-results, measured in headless
// chromium against a running `strata serve`.
//   node web/bench/ui-bench.mjs --url http://127.0.0.1:8080 [--queries "a b,c d"] [--runs 5]
// First render = navigation start → the app's `strata:first-render` mark; query-to-results =
// Enter in the search box → the first page's tiles in the DOM (`strata:results` mark).
import { launchBrowser } from '../tests/fixture.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const base = arg('url', 'http://127.0.0.1:8080');
const runs = Number(arg('runs', 5));
const queries = arg('queries', 'lighthouse storm,vintage tram,harbour sunset,castle ruins').split(',');
const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

const browser = await launchBrowser();
const firstRender = [];
const queryMs = [];
for (let r = 0; r < runs; r++) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.waitForFunction(() => performance.getEntriesByName('strata:first-render').length);
  firstRender.push(await page.evaluate(() => performance.getEntriesByName('strata:first-render')[0].startTime));
  for (const q of queries) {
    await page.evaluate(() => performance.clearMarks('strata:results'));
    await page.fill('#q', q);
    const t0 = await page.evaluate(() => performance.now());
    await page.press('#q', 'Enter');
    await page.waitForFunction(() => performance.getEntriesByName('strata:results').length
      || document.querySelector('.empty'));
    const t1 = await page.evaluate(() => performance.getEntriesByName('strata:results')[0]?.startTime ?? performance.now());
    queryMs.push(t1 - t0);
  }
  await context.close();
}
await browser.close();
const report = {
  url: base, runs, queries,
  first_render_ms: { p50: pct(firstRender, 0.5), p95: pct(firstRender, 0.95), max: Math.max(...firstRender) },
  query_to_results_ms: { p50: pct(queryMs, 0.5), p95: pct(queryMs, 0.95), max: Math.max(...queryMs) },
  targets: { first_render_ms: 1000, query_to_results_ms: 300 },
};
console.log(JSON.stringify(report, null, 2));
