// Strata's search page: plain ES modules, no build step, nothing loaded from elsewhere.
import { defaultLang, translator, formatNumber, formatTimestamp } from './i18n.js';
import {
  readState, stateToSearch, searchKey, hasSearch, hasFilters, apiUrl, advancedToQuery,
  queryToAdvanced, thumbUrl, thumbSrcset, replayImageUrl, capturesUrl, describe, FILTER_KEYS, groupUrl,
} from './state.js';
import { justify } from './layout.js';
import { $, el } from './dom.js';
import { initSimilar } from './similar.js';
import { exportMenu } from './export.js';
import { bookRows, pageHref, syncBookFilters, wireBookFilters } from './book.js';
import { initRedundancy } from './redundancy.js';
import { loadSummary, renderHome, fillCollections } from './summary.js';
import { showOriginal } from './viewer-image.js';

const PAGE = Number(window.__STRATA_PAGE_SIZE__) || 60;  // tests set a smaller page
const MAX_OFFSET = 10000;  // the API refuses deeper pages (docs/api.md)
const SLOW_MS = 1500;
// The index's summary (summary.js): collections, years, example queries; null until it comes.
let summary = null;

let state = readState();
let lang = state.lang || localStorage.getItem('strata.lang') || defaultLang();
let t = translator(lang);

// Results of the current search.
const results = {
  key: null, items: [], total: 0, years: {}, loading: false, error: null, ms: 0,
  controller: null, done: false,
};
let timelineKey = null;
let timelineYears = {};

// ---------------------------------------------------------------- navigation
function navigate(patch, { replace = false } = {}) {
  const next = { ...state, ...patch };
  const url = stateToSearch(next);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  state = readState();
  update();
}
window.addEventListener('popstate', () => {
  state = readState();
  update();
});

// ---------------------------------------------------------------- i18n
function applyLang() {
  t = translator(lang);
  document.documentElement.lang = lang === 'pt' ? 'pt-PT' : 'en';
  document.title = state.q ? `${state.q} — Strata` : t('app.title');
  for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll('[data-i18n-placeholder]'))
    e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll('[data-i18n-aria]'))
    e.setAttribute('aria-label', t(e.dataset.i18nAria));
  $('#lang-switch').lang = lang === 'pt' ? 'en' : 'pt';
  $('#timeline').setAttribute('aria-describedby', 'timeline-help');
}
$('#lang-switch').addEventListener('click', () => {
  lang = lang === 'pt' ? 'en' : 'pt';
  localStorage.setItem('strata.lang', lang);
  navigate({ lang }, { replace: true });
});

// ---------------------------------------------------------------- controls
function syncControls() {
  const q = $('#q');
  if (document.activeElement !== q) q.value = state.q;
  $('#f-from').value = state.from;
  $('#f-to').value = state.to;
  $('#f-size').value = state.size;
  $('#f-type').value = state.type;
  $('#f-site').value = state.site;
  fillCollections($('#f-collection'), summary, state.collection, { t, fmt: (n) => formatNumber(lang, n) });
  $('#f-kind').value = state.kind;
  syncBookFilters(state);
  $('#f-safe').checked = state.safe !== 'off';
  $('#f-decorative').checked = state.decorative === 'show';
  $('#f-reset').disabled = !hasFilters(state);
  redundancy.sync();
  const adv = queryToAdvanced(state.q);
  const f = $('#advanced-form');
  for (const k of ['all', 'phrase', 'any', 'none']) f.elements[k].value = adv[k];
}

$('#search-form').addEventListener('submit', (e) => {
  e.preventDefault();
  navigate({ q: $('#q').value.trim(), go: '1', view: '', img: '' });
});
$('#advanced-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const f = e.target.elements;
  const q = advancedToQuery({ all: f.all.value, phrase: f.phrase.value, any: f.any.value, none: f.none.value });
  navigate({ q, go: '1', view: '', img: '' });
});
const filterChange = (key, value) => navigate({ [key]: value, go: '1', view: '', img: '' });
$('#f-from').addEventListener('change', (e) => filterChange('from', e.target.value));
$('#f-to').addEventListener('change', (e) => filterChange('to', e.target.value));
$('#f-size').addEventListener('change', (e) => filterChange('size', e.target.value));
$('#f-type').addEventListener('change', (e) => filterChange('type', e.target.value));
$('#f-site').addEventListener('change', (e) => filterChange('site', e.target.value.trim()));
$('#f-collection').addEventListener('change', (e) => filterChange('collection', e.target.value.trim()));
$('#f-kind').addEventListener('change', (e) => filterChange('kind', e.target.value));
wireBookFilters(filterChange);
// Enter applies a typed filter at once (change alone waits for the field to lose focus).
for (const id of ['#f-from', '#f-to', '#f-site']) {
  $(id).addEventListener('keydown', (e) => {
    if (e.key === 'Enter') { e.preventDefault(); e.target.dispatchEvent(new Event('change')); }
  });
}
$('#f-safe').addEventListener('change', (e) => {
  // Clear the grid before anything else so no image of the old setting stays on screen.
  clearGrid();
  filterChange('safe', e.target.checked ? 'on' : 'off');
});
$('#f-decorative').addEventListener('change', (e) => {
  filterChange('decorative', e.target.checked ? 'show' : 'hide');
});
$('#f-reset').addEventListener('click', () => {
  const patch = { view: '', img: '' };
  for (const k of FILTER_KEYS) patch[k] = '';
  navigate(patch);
});
$('#filters-toggle').addEventListener('click', () => {
  const open = !$('#filters').classList.contains('open');
  $('#filters').classList.toggle('open', open);
  $('#filters-toggle').setAttribute('aria-expanded', String(open));
});

// ---------------------------------------------------------------- search
function clearGrid() {
  $('#results').replaceChildren();
  tiles.length = 0;
}

async function fetchJson(url, signal) {
  const res = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok || !body) {
    const err = new Error(body?.error?.message || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

function newSearch() {
  results.controller?.abort();
  Object.assign(results, { key: searchKey(state), items: [], total: 0, years: {}, error: null,
    done: false, loading: false, ms: 0 });
  clearGrid();
  loadPage();
  loadTimeline();
}

async function loadPage() {
  if (results.loading || results.done) return;
  const key = results.key;
  const controller = new AbortController();
  results.controller = controller;
  results.loading = true;
  results.error = null;
  const first = results.items.length === 0;
  const slow = setTimeout(() => { if (results.key === key) renderStatus(true); }, SLOW_MS);
  if (first) renderStatus();
  const t0 = performance.now();
  try {
    const body = await fetchJson(apiUrl(state, results.items.length, PAGE), controller.signal);
    if (results.key !== key) return;
    if (first) results.ms = performance.now() - t0;
    // With a redundancy rule only the kept results are shown.
    results.total = body.redundancy?.kept ?? body.totalItems ?? 0;
    results.years = body.years || {};
    if (first) redundancy.summary(body.redundancy);
    const items = body.responseItems || [];
    results.items.push(...items);
    results.done = items.length === 0 ||
      results.items.length >= Math.min(results.total, MAX_OFFSET);
    appendTiles(items, results.items.length - items.length);
    performance.mark(first ? 'strata:results' : 'strata:more');
  } catch (e) {
    if (e.name === 'AbortError' || results.key !== key) return;
    results.error = e;
  } finally {
    clearTimeout(slow);
    if (results.key === key) {
      results.loading = false;
      renderStatus();
      // Keep filling while the sentinel is still on screen (large screens).
      if (!results.error && !results.done) requestAnimationFrame(checkSentinel);
    }
  }
}

async function loadTimeline() {
  // The timeline shows every year for the search without its date range, so brushing a
  // range never hides the other years.
  const s = { ...state, from: '', to: '' };
  const key = searchKey(s);
  if (key === timelineKey) return renderTimeline();
  timelineKey = key;
  try {
    const body = await fetchJson(apiUrl(s, 0, 0));
    if (timelineKey === key) timelineYears = body.years || {};
  } catch {
    if (timelineKey === key) timelineYears = {};
  }
  renderTimeline();
}

// ---------------------------------------------------------------- status
function renderStatus(slow = false) {
  const box = $('#status');
  box.replaceChildren();
  box.classList.remove('error');
  if (!results.key) return;
  if (results.error) {
    box.classList.add('error');
    box.append(el('p', { role: 'alert', text: t('results.error') }),
      el('p', { class: 'detail', text: results.error.message }),
      el('button', { type: 'button', text: t('results.retry'), onclick: () => {
        results.error = null; loadPage(); } }));
  } else if (results.loading && results.items.length === 0) {
    box.append(el('p', { class: 'loading', text: slow ? t('results.slow') : t('results.loading') }));
  } else if (results.items.length === 0) {
    box.append(noResults());
  } else {
    const count = results.total === 1 ? t('results.count.one')
      : t('results.count', { count: formatNumber(lang, results.total) });
    const secs = (results.ms / 1000).toLocaleString(lang === 'pt' ? 'pt-PT' : 'en-GB',
      { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const range = state.from || state.to
      ? t('results.range', { from: state.from || '…', to: state.to || '…' }) : '';
    box.append(el('p', { class: 'count', 'data-total': String(results.total), text: `${count}${range} · ${t('results.time', { seconds: secs })}` }),
      exportMenu(state, results.total, t, (n) => formatNumber(lang, n)));
    if (slow) box.append(el('p', { class: 'loading', text: t('results.slow') }));
  }
  const more = !results.done && !results.error && results.items.length > 0;
  $('#load-more').hidden = !more;
  $('#load-more').disabled = results.loading;
  $('#end').hidden = !(results.done && results.items.length > 0);
}

function noResults() {
  const box = el('div', { class: 'empty' });
  box.append(el('p', { class: 'empty-title', text: state.q
    ? t('results.none', { query: `“${state.q}”` }) : t('results.none.all') }));
  const ul = el('ul');
  if (hasFilters(state)) {
    const patch = {};
    for (const k of FILTER_KEYS) patch[k] = '';
    ul.append(el('li', {}, el('button', { type: 'button', class: 'link', text: t('results.suggest.filters'),
      onclick: () => navigate(patch) })));
  }
  if (state.from || state.to)
    ul.append(el('li', {}, el('button', { type: 'button', class: 'link', text: t('results.suggest.dates'),
      onclick: () => navigate({ from: '', to: '' }) })));
  if (state.safe === 'on' && state.q)
    ul.append(el('li', {}, el('button', { type: 'button', class: 'link', text: t('results.suggest.safe'),
      onclick: () => { clearGrid(); navigate({ safe: 'off' }); } })));
  if (state.decorative !== 'show' && state.q)
    ul.append(el('li', {}, el('button', { type: 'button', class: 'link', text: t('results.suggest.decorative'),
      onclick: () => navigate({ decorative: 'show' }) })));
  ul.append(el('li', { text: t('results.suggest.words') }));
  for (const q of (summary?.examples || []).slice(0, 3))
    ul.append(el('li', {}, el('a', { href: stateToSearch({ ...state, q, from: '', to: '', view: '', img: '' }),
      text: q, onclick: (e) => { e.preventDefault(); navigate({ q, from: '', to: '', view: '', img: '' }); } })));
  box.append(el('p', { text: t('results.suggest') }), ul);
  return box;
}

// ---------------------------------------------------------------- grid
const tiles = [];  // {item, a, img}
let lastWidth = 0;

function targetHeight() {
  const w = $('#results').clientWidth;
  return w < 500 ? 110 : w < 900 ? 150 : 190;
}

function appendTiles(items, start) {
  const grid = $('#results');
  const frag = document.createDocumentFragment();
  items.forEach((item, k) => {
    const n = start + k;
    const alt = describe(item);
    const img = el('img', { alt, loading: n < 24 ? 'eager' : 'lazy', decoding: 'async',
      width: item.imgWidth || 200, height: item.imgHeight || 200 });
    img.addEventListener('error', () => tile.a.classList.add('broken'), { once: true });
    // Sharp at any screen density, never drawn larger than its pixels (style.css: scale-down).
    const srcset = thumbSrcset(item, state.safe);
    if (srcset) img.srcset = srcset;
    img.src = thumbUrl(item, state.safe);
    const a = el('a', { class: 'tile', href: viewerHref(n, item), 'data-index': String(n),
      title: alt },
    img);
    // Near-duplicates folded into this result (the viewer lists them).
    if (item.collapsedImages > 0) {
      a.append(el('span', { class: 'similar-badge', text: t('results.similar', { n: formatNumber(lang, item.collapsedImages) }) }));
    }
    if (item.covers > 0) a.append(redundancy.badge(item));
    a.addEventListener('click', (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate({ view: String(n), img: item.imgDigest });
    });
    const tile = { item, a, img };
    tiles.push(tile);
    frag.append(a);
  });
  grid.append(frag);
  layoutGrid();
}

function viewerHref(n, item) {
  return stateToSearch({ ...state, view: String(n), img: item.imgDigest });
}

function layoutGrid() {
  const grid = $('#results');
  const width = grid.clientWidth;
  if (!width || !tiles.length) return;
  lastWidth = width;
  const gap = 6;
  const aspects = tiles.map(({ item }) => (item.imgWidth && item.imgHeight
    ? item.imgWidth / item.imgHeight : 1));
  const rows = justify(aspects, width - 1, targetHeight(), gap);
  for (const row of rows) {
    let used = 0;
    row.items.forEach(({ index, width: w }, k) => {
      const last = k === row.items.length - 1;
      const fw = Math.max(24, Math.floor(w));
      used += fw;
      const { a } = tiles[index];
      a.style.width = `${fw}px`;
      a.style.height = `${Math.floor(row.height)}px`;
      if (last) used = 0;
    });
  }
}
new ResizeObserver(() => {
  if ($('#results').clientWidth !== lastWidth) layoutGrid();
}).observe($('#results'));

function checkSentinel() {
  const r = $('#sentinel').getBoundingClientRect();
  if (r.top < window.innerHeight + 800 && hasSearch(state)) loadPage();
}
new IntersectionObserver((entries) => {
  if (entries.some((e) => e.isIntersecting) && hasSearch(state)) loadPage();
}, { rootMargin: '800px 0px' }).observe($('#sentinel'));
$('#load-more').addEventListener('click', () => {
  const focusIndex = results.items.length;
  loadPage().then(() => tiles[focusIndex]?.a.focus());
});

// ---------------------------------------------------------------- timeline
let brush = null;  // {start, end} years while dragging

function renderTimeline() {
  const box = $('#timeline');
  const years = Object.keys(timelineYears).map(Number).sort((a, b) => a - b);
  box.replaceChildren();
  box.closest('.timeline-wrap').hidden = years.length === 0;
  if (!years.length) return;
  const lo = years[0];
  const hi = Math.max(years[years.length - 1], lo);
  const max = Math.max(...Object.values(timelineYears));
  const from = brush ? Math.min(brush.start, brush.end) : +state.from || null;
  const to = brush ? Math.max(brush.start, brush.end) : +state.to || null;
  for (let y = lo; y <= hi; y++) {
    const count = timelineYears[y] || 0;
    const inRange = (from || to) && y >= (from || -Infinity) && y <= (to || Infinity);
    const h = count ? Math.max(8, Math.round((Math.log1p(count) / Math.log1p(max)) * 100)) : 2;
    const label = t('timeline.bar', { year: y, count: formatNumber(lang, count) });
    const fill = el('span', { class: 'fill' });
    fill.style.height = `${h}%`;  // CSSOM, allowed by the page's CSP (style attributes are not)
    const b = el('button', { type: 'button', class: `bar${inRange ? ' selected' : ''}${count ? '' : ' zero'}`,
      'data-year': String(y), 'aria-label': label, title: label,
      'aria-pressed': inRange ? 'true' : 'false' },
    fill,
    el('span', { class: 'year', 'aria-hidden': 'true', text: (y % 5 === 0 || y === lo || y === hi) ? String(y) : '' }));
    b.addEventListener('click', (e) => {
      if (e.detail !== 0) return;  // pointer clicks are handled by the brush
      // Keyboard: a year; Shift extends the current range.
      if (e.shiftKey && (state.from || state.to)) {
        const a = +state.from || y;
        navigate({ from: String(Math.min(a, y)), to: String(Math.max(+state.to || y, y, a)), go: '1', view: '', img: '' });
      } else navigate({ from: String(y), to: String(y), go: '1', view: '', img: '' });
    });
    box.append(b);
  }
  if (state.from || state.to) {
    box.append(el('button', { type: 'button', class: 'link clear-range', text: t('timeline.clear'),
      onclick: () => navigate({ from: '', to: '', view: '', img: '' }) }));
  }
}

function yearAt(x) {
  const bars = [...$('#timeline').querySelectorAll('.bar')];
  let best = null;
  let bestDist = Infinity;
  for (const b of bars) {
    const r = b.getBoundingClientRect();
    const d = x < r.left ? r.left - x : x > r.right ? x - r.right : 0;
    if (d < bestDist) { bestDist = d; best = +b.dataset.year; }
  }
  return best;
}
$('#timeline').addEventListener('pointerdown', (e) => {
  if (e.button !== 0 || !e.target.closest('.bar')) return;
  const y = yearAt(e.clientX);
  if (y == null) return;
  e.preventDefault();
  brush = { start: y, end: y };
  $('#timeline').setPointerCapture(e.pointerId);
  renderTimeline();
});
$('#timeline').addEventListener('pointermove', (e) => {
  if (!brush) return;
  const y = yearAt(e.clientX);
  if (y != null && y !== brush.end) { brush.end = y; renderTimeline(); }
});
const endBrush = (e) => {
  if (!brush) return;
  const from = Math.min(brush.start, brush.end);
  const to = Math.max(brush.start, brush.end);
  brush = null;
  if (e.type === 'pointercancel') return renderTimeline();
  navigate({ from: String(from), to: String(to), go: '1', view: '', img: '' });
};
$('#timeline').addEventListener('pointerup', endBrush);
$('#timeline').addEventListener('pointercancel', endBrush);

// ---------------------------------------------------------------- viewer
const viewer = $('#viewer');
let viewerToken = 0;
let viewerItem = null;

async function itemAt(n) {
  if (results.key === searchKey(state) && results.items[n]) return results.items[n];
  const body = await fetchJson(apiUrl(state, n, 1));
  return body.responseItems?.[0] || null;
}

async function showViewer() {
  const n = +state.view;
  const token = ++viewerToken;
  if (!viewer.open) {
    viewer.showModal();
    document.body.classList.add('viewer-open');
  }
  let item = null;
  try {
    item = await itemAt(n);
    // A shared link names the image too: if the results moved, look for it.
    if (item && state.img && item.imgDigest !== state.img) {
      const k = results.items.findIndex((i) => i.imgDigest === state.img);
      if (k >= 0) {
        history.replaceState(null, '', stateToSearch({ ...state, view: String(k) }));
        state = readState();
        item = results.items[k];
      }
    }
  } catch {
    item = null;
  }
  if (token !== viewerToken) return;
  renderViewer(item, +state.view);
}

function renderViewer(item, n) {
  viewerItem = item;
  const total = results.total || (item ? n + 1 : 0);
  $('#viewer-position').textContent = item ? t('viewer.position', { n: formatNumber(lang, n + 1), total: formatNumber(lang, total) }) : '';
  $('#viewer-prev').disabled = n <= 0;
  $('#viewer-next').disabled = results.total ? n + 1 >= results.total : true;
  const img = $('#viewer-img');
  const dl = $('#viewer-dl');
  dl.replaceChildren();
  if (!item) {
    img.removeAttribute('src');
    img.alt = '';
    $('#viewer-heading').textContent = t('results.error');
    return;
  }
  const alt = describe(item);
  img.alt = alt;
  showOriginal(img, item, state.safe);
  const title = (item.imgTitle || [])[0] || (item.imgAlt || [])[0] || item.pageTitle || alt;
  $('#viewer-heading').textContent = title;
  const row = (label, ...values) => {
    const vs = values.flat().filter((v) => v !== undefined && v !== null && v !== '');
    if (!vs.length) return;
    dl.append(el('dt', { text: label }));
    for (const v of vs) dl.append(el('dd', {}, v));
  };
  row(t('viewer.alt'), item.imgAlt || []);
  row(t('viewer.title'), item.imgTitle || []);
  row(t('viewer.captions'), (item.imgCaption || []).map((c) => el('span', { class: 'caption', text: c })));
  const first = formatTimestamp(lang, item.imgTstamp, true);
  const last = item.imgTstampLatest && item.imgTstampLatest !== item.imgTstamp
    ? formatTimestamp(lang, item.imgTstampLatest, true) : '';
  row(t('viewer.captured'), last ? t('viewer.firstLast', { first, last }) : first);
  // Every capture of the image and of its page, each opening its replay (docs/replay.md).
  const captures = (url, text) => el('a', { href: capturesUrl(url), target: '_blank', rel: 'noopener noreferrer', text });
  row(t('viewer.captures'), captures(item.imgSrc, item.matchingImages
    ? t('viewer.capturesValue', { n: formatNumber(lang, item.matchingImages) }) : t('viewer.allCaptures')));
  row(t('viewer.dimensions'), item.imgWidth && item.imgHeight ? `${item.imgWidth} × ${item.imgHeight} px` : '');
  row(t('viewer.type'), item.imgMimeType || '');
  const bytes = el('span', { id: 'viewer-bytes', text: '…' });
  row(t('viewer.bytes'), bytes);
  const pageLink = el('a', { href: pageHref(item), target: '_blank', rel: 'noopener noreferrer',
    text: item.pageTitle || t('viewer.untitled') });
  row(t('viewer.page'), pageLink, el('span', { class: 'url', text: item.pageURL }));
  bookRows(item, row, t);
  row(t('viewer.pageDate'), formatTimestamp(lang, item.pageTstamp, true), captures(item.pageURL, t('viewer.pageCaptures')));
  if (item.matchingPages) row(t('viewer.otherPages'), t('viewer.otherPagesValue', { n: formatNumber(lang, item.matchingPages) }));
  row(t('viewer.imageUrl'), el('span', { class: 'url', text: item.imgSrc }));
  row(t('viewer.collections'), (item.collection || []).join(', '));
  if (item.groupId && item.groupSize > 1) {
    const members = el('span', { class: 'group-members', id: 'viewer-group' });
    row(t('viewer.group'), members);
    renderGroup(item, members, viewerToken);
  }
  redundancy.viewer(item);
  $('#viewer-page-link').href = pageHref(item);
  $('#viewer-img-link').href = item.imgLinkToArchive || replayImageUrl(item);
  // The byte size is not an API field: ask the replay for the record's length.
  fetch(replayImageUrl(item), { method: 'HEAD' }).then((r) => {
    const len = +r.headers.get('Content-Length');
    bytes.textContent = r.ok && len ? formatBytes(len) : '—';
  }).catch(() => { bytes.textContent = '—'; });
}

// The near-duplicate group of the viewer's image: every member safe search lets through, each
// a thumbnail linking to its archived copy (docs/ui.md).
const GROUP_SHOWN = 24;
async function renderGroup(item, box, token) {
  let body;
  try {
    body = await fetchJson(groupUrl(item.groupId, state.safe, GROUP_SHOWN));
  } catch {
    return;
  }
  if (token !== viewerToken) return;
  box.replaceChildren(el('span', { class: 'group-count', text: t('viewer.groupValue', { n: formatNumber(lang, body.totalItems) }) }));
  for (const m of body.responseItems || []) {
    const label = `${m.imgWidth} × ${m.imgHeight} px · ${formatTimestamp(lang, m.imgTstamp, true)} · ${m.imgSrc}`;
    const thumb = el('img', { src: thumbUrl(m, state.safe), srcset: thumbSrcset(m, state.safe), alt: describe(m), loading: 'lazy' });
    box.append(el('a', { class: 'group-member', href: m.imgLinkToArchive || replayImageUrl(m), target: '_blank',
      rel: 'noopener noreferrer', title: label, 'data-digest': m.imgDigest,
      'aria-current': m.imgDigest === item.imgDigest ? 'true' : undefined }, thumb));
  }
}

function formatBytes(n) {
  const fmt = (v) => v.toLocaleString(lang === 'pt' ? 'pt-PT' : 'en-GB', { maximumFractionDigits: 1 });
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${fmt(n / 1024)} KB`;
  return `${fmt(n / 1024 / 1024)} MB`;
}

function closeViewerUi() {
  if (viewer.open) viewer.close();
  document.body.classList.remove('viewer-open');
}

function step(d) {
  const n = +state.view + d;
  if (n < 0 || (results.total && n >= results.total)) return;
  const item = results.items[n];
  navigate({ view: String(n), img: item ? item.imgDigest : '' }, { replace: true });
  if (n >= results.items.length - 5) loadPage();
}
$('#viewer-prev').addEventListener('click', () => step(-1));
$('#viewer-next').addEventListener('click', () => step(1));
$('#viewer-close').addEventListener('click', () => navigate({ view: '', img: '' }));
viewer.addEventListener('cancel', (e) => {
  e.preventDefault();
  navigate({ view: '', img: '' });
});
viewer.addEventListener('click', (e) => {
  if (e.target === viewer) navigate({ view: '', img: '' });  // the backdrop
});
viewer.addEventListener('keydown', (e) => {
  if (e.target.matches('input, textarea, select')) return;
  if (e.key === 'ArrowLeft') { e.preventDefault(); step(-1); }
  if (e.key === 'ArrowRight') { e.preventDefault(); step(1); }
});
$('#viewer-copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(location.href);
    $('#viewer-copy').textContent = t('viewer.copied');
    setTimeout(() => { $('#viewer-copy').textContent = t('viewer.copy'); }, 1500);
  } catch { /* clipboard unavailable: the address bar has the link */ }
});

// ---------------------------------------------------------------- similar images
const similar = initSimilar(() => ({ t, safe: state.safe }));
$('#viewer-similar').addEventListener('click', () => {
  if (viewerItem) similar.byDigest(viewerItem);
});
$('#viewer-visual').addEventListener('click', () => {
  if (viewerItem) similar.byDigest(viewerItem, 'visual');
});
$('#upload-button').addEventListener('click', () => $('#upload-file').click());
$('#upload-file').addEventListener('change', (e) => {
  const file = e.target.files[0];
  e.target.value = '';  // choosing the same file again searches again
  if (file) similar.byUpload(file);
});

// ---------------------------------------------------------------- redundancy
const redundancy = initRedundancy(() => ({ t, lang, state }), navigate);

// ---------------------------------------------------------------- intro
// The index's own summary (summary.js): its collections and years, and example queries.
function renderIntro() {
  const link = (patch, text) => el('a', { href: stateToSearch({ ...state, ...patch }), text,
    onclick: (e) => { e.preventDefault(); navigate(patch); } });
  renderHome(summary, { t, fmt: (n) => formatNumber(lang, n), link });
}
loadSummary().then((s) => {
  summary = s;
  fillCollections($('#f-collection'), summary, state.collection, { t, fmt: (n) => formatNumber(lang, n) });
  if (!hasSearch(state)) renderIntro();
  else if (results.key && !results.loading && !results.items.length) renderStatus();
});

// ---------------------------------------------------------------- update
function update() {
  applyLang();
  syncControls();
  const searching = hasSearch(state);
  $('#intro').hidden = searching;
  document.body.classList.toggle('home', !searching);
  if (!searching) {
    results.controller?.abort();
    results.key = null;
    clearGrid();
    renderStatus();
    renderIntro();
    $('#load-more').hidden = true;
    $('#end').hidden = true;
    timelineKey = null;
    timelineYears = {};
    renderTimeline();
  } else if (results.key !== searchKey(state)) {
    newSearch();
  } else {
    renderStatus();
    renderTimeline();
  }
  if (state.view !== '' && searching) {
    showViewer();
  } else if (viewer.open) {
    const n = viewerItem ? tiles.findIndex((x) => x.item === viewerItem) : -1;
    closeViewerUi();
    viewerItem = null;
    if (n >= 0) tiles[n].a.focus();
  }
}

update();
performance.mark('strata:first-render');
