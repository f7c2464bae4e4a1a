// The index's own summary (GET /imagesearch/summary, docs/api.md "Index summary"): the home
// page's collections, years and example queries, the collection filter's choices and the
// no-results hints' queries. Fetched once per page load.
import { el } from './dom.js';

let pending = null;

// The summary, or null when the server has none to give (then the page offers no examples).
export function loadSummary() {
  if (!pending) {
    pending = fetch('/imagesearch/summary', { headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
  }
  return pending;
}

const span = (from, to) => (from ? (from === to ? String(from) : `${from}–${to}`) : '');

// The home page: "N images in K collections, captured FROM–TO", each collection a link to its
// images, and the example queries. `link(patch, text)` makes a link that navigates.
export function renderHome(summary, { t, fmt, link }) {
  const overview = document.querySelector('#index-overview');
  const collections = document.querySelector('#collections');
  const examples = document.querySelector('#examples');
  overview.replaceChildren();
  collections.replaceChildren();
  examples.replaceChildren();
  document.querySelector('#collections-heading').hidden = !summary?.collections?.length;
  document.querySelector('#examples-heading').hidden = !summary?.examples?.length;
  if (summary) {
    const years = span(summary.from, summary.to);
    const n = summary.collections.length;
    overview.textContent = t(n === 1 ? 'home.summary.one' : 'home.summary', {
      images: fmt(summary.totalImages), collections: fmt(n),
    }) + (years ? t('home.years', { years }) : '');
    for (const c of summary.collections) {
      const item = el('li', { 'data-collection': c.name },
        link({ q: '', go: '1', collection: c.name }, c.name),
        el('span', { class: 'detail', text: [t('home.images', { n: fmt(c.images) }), span(c.from, c.to)].filter(Boolean).join(' · ') }));
      collections.append(item);
    }
    for (const q of summary.examples) examples.append(el('li', {}, link({ q, go: '1' }, q)));
  }
  examples.append(el('li', { class: 'browse' }, link({ q: '', go: '1' }, t('examples.browse'))));
}

// The collection filter's choices: every collection of the index with its image count, and
// the current value when the index has no such collection (a shared link, a comma list).
export function fillCollections(select, summary, current, { t, fmt }) {
  const names = (summary?.collections || []).map((c) => c.name);
  const options = [el('option', { value: '', text: t('filters.collection.all') })];
  for (const c of summary?.collections || [])
    options.push(el('option', { value: c.name, text: `${c.name} (${fmt(c.images)})` }));
  if (current && !names.includes(current)) options.push(el('option', { value: current, text: current }));
  select.replaceChildren(...options);
  select.value = current;
}
