// User-defined redundancy (docs/redundancy.md, docs/ui.md "Hide redundant results"): a control
// in the filters with the presets and a free coverage expression (checked by the server before
// the search runs, so a mistake is shown with its column), the number of results the cover
// hides, a badge on every kept result that covers others, and in the viewer "Show what this
// covers": the results it hides, from /imagesearch?...&expand=imgDigest.
import { $, el } from './dom.js';
import { STRINGS, formatNumber, formatTimestamp } from './i18n.js';
import { apiUrl, thumbUrl, describe } from './state.js';

// The server's presets (docs/redundancy.md); anything else is a free expression.
export const PRESETS = ['exact', 'near', 'best', 'versions', 'perhost'];
const MAX_EXPRESSION = 1024;  // the server's limit
const EXPAND_ITEMS = 200;     // the API's largest page

Object.assign(STRINGS.en, {
  'redundancy.label': 'Hide redundant results',
  'redundancy.off': 'Show all results',
  'redundancy.exact': 'Exact copies: one of each',
  'redundancy.near': 'Near duplicates: one of each',
  'redundancy.best': 'Near duplicates: the largest',
  'redundancy.versions': 'Versions of a URL: the newest',
  'redundancy.perhost': 'One per site: the newest',
  'redundancy.custom': 'My own rule…',
  'redundancy.expression': 'Rule: b covers a when',
  'redundancy.apply': 'Apply',
  'redundancy.help': 'e.g. phash<=8,larger · same(url),newer,within(ts,365d) · near,better',
  'redundancy.checking': 'Checking the rule…',
  'redundancy.hidden': '{hidden} of the top {window} results hidden as redundant, {kept} shown',
  'redundancy.none': 'No result of the top {window} is redundant under this rule',
  'redundancy.exactCover': 'the fewest possible',
  'redundancy.greedyCover': 'at most {bound}× the fewest possible',
  'redundancy.badge': 'covers {n}',
  'redundancy.badgeTitle': 'Hides {n} redundant results: open it to see them',
  'redundancy.show': 'Show what this covers ({n})',
  'redundancy.heading': 'Results this one covers',
  'redundancy.loading': 'Loading the results this one covers…',
  'redundancy.count': '{n} results hidden because this one covers them, best ranked first',
  'redundancy.error': 'Could not load them: {message}',
  'redundancy.close': 'Close',
});
Object.assign(STRINGS.pt, {
  'redundancy.label': 'Esconder resultados redundantes',
  'redundancy.off': 'Mostrar todos os resultados',
  'redundancy.exact': 'Cópias exatas: uma de cada',
  'redundancy.near': 'Quase duplicados: um de cada',
  'redundancy.best': 'Quase duplicados: o maior',
  'redundancy.versions': 'Versões de um URL: a mais recente',
  'redundancy.perhost': 'Uma por sítio: a mais recente',
  'redundancy.custom': 'A minha regra…',
  'redundancy.expression': 'Regra: b cobre a quando',
  'redundancy.apply': 'Aplicar',
  'redundancy.help': 'p. ex. phash<=8,larger · same(url),newer,within(ts,365d) · near,better',
  'redundancy.checking': 'A verificar a regra…',
  'redundancy.hidden': '{hidden} dos primeiros {window} resultados escondidos por redundância, {kept} mostrados',
  'redundancy.none': 'Nenhum dos primeiros {window} resultados é redundante com esta regra',
  'redundancy.exactCover': 'o mínimo possível',
  'redundancy.greedyCover': 'no máximo {bound}× o mínimo possível',
  'redundancy.badge': 'cobre {n}',
  'redundancy.badgeTitle': 'Esconde {n} resultados redundantes: abra-o para os ver',
  'redundancy.show': 'Mostrar o que este cobre ({n})',
  'redundancy.heading': 'Resultados que este cobre',
  'redundancy.loading': 'A carregar os resultados que este cobre…',
  'redundancy.count': '{n} resultados escondidos porque este os cobre, os mais relevantes primeiro',
  'redundancy.error': 'Não foi possível carregá-los: {message}',
  'redundancy.close': 'Fechar',
});

// The expression the page asks for: a preset name or free text (empty: off).
export function readRedundancy(value) {
  const v = String(value || '').trim();
  return v.length <= MAX_EXPRESSION ? v : '';
}

function control() {
  const options = ['', ...PRESETS, 'custom'].map((v) => el('option',
    { value: v, 'data-i18n': `redundancy.${v || 'off'}` }));
  return el('div', { class: 'filter-row redundancy-row', id: 'redundancy' },
    el('label', {}, el('span', { 'data-i18n': 'redundancy.label' }),
      el('select', { id: 'r-preset', name: 'redundancy' }, ...options)),
    el('form', { id: 'r-form', class: 'r-form', hidden: true, novalidate: true },
      el('label', {}, el('span', { 'data-i18n': 'redundancy.expression' }),
        el('input', { id: 'r-expr', name: 'expression', type: 'text', autocomplete: 'off',
          spellcheck: 'false', maxlength: String(MAX_EXPRESSION), 'aria-describedby': 'r-error r-help' })),
      el('button', { type: 'submit', 'data-i18n': 'redundancy.apply' }),
      el('p', { id: 'r-help', class: 'help', 'data-i18n': 'redundancy.help' }),
      el('p', { id: 'r-error', class: 'r-error', role: 'alert' })),
    el('p', { id: 'r-summary', class: 'r-summary', role: 'status', 'aria-live': 'polite' }));
}

// `page()` gives { t, lang, state } as they are now; `navigate(patch)` changes the page state.
export function initRedundancy(page, navigate) {
  $('#filters').append(control());
  const preset = $('#r-preset');
  const form = $('#r-form');
  const input = $('#r-expr');
  const error = $('#r-error');
  let checking = null;
  let custom = false;  // "My own rule…" chosen, nothing applied yet
  let shown = null;  // the cover the row reports

  function clearSummary() {
    const box = $('#r-summary');
    box.textContent = '';
    delete box.dataset.hidden;
    delete box.dataset.expression;
  }

  function report(cover) {
    shown = cover || null;
    const { t, lang } = page();
    const box = $('#r-summary');
    if (!cover) return clearSummary();
    const hidden = cover.window - cover.kept;
    const n = (x) => formatNumber(lang, x);
    const how = cover.greedyComponents > 0
      ? t('redundancy.greedyCover', { bound: cover.greedyBound.toFixed(2) }) : t('redundancy.exactCover');
    box.textContent = hidden > 0
      ? `${t('redundancy.hidden', { hidden: n(hidden), window: n(cover.window), kept: n(cover.kept) })} (${how})`
      : t('redundancy.none', { window: n(cover.window) });
    box.dataset.hidden = String(hidden);
    box.dataset.expression = cover.expression;
  }

  function showError(message) {
    error.textContent = message;
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  // The server parses the rule before it searches: a one-result search says whether it is good.
  async function apply(expression) {
    checking?.abort();
    if (!expression) return navigate({ redundancy: '', go: '1', view: '', img: '' });
    checking = new AbortController();
    const { t } = page();
    showError('');
    $('#r-summary').textContent = t('redundancy.checking');
    const p = new URLSearchParams({ q: '', maxItems: '0', redundancyWindow: '1', redundancy: expression });
    try {
      const r = await fetch(`/imagesearch?${p}`, { signal: checking.signal });
      if (r.status === 400) {
        const body = await r.json().catch(() => ({}));
        report(shown);
        showError(body.error?.message || `HTTP ${r.status}`);
        input.focus();
        return;
      }
    } catch (e) {
      if (e.name === 'AbortError') return;
      // The search itself will say what is wrong with the server.
    }
    // The same rule again runs no new search: the row keeps its account.
    if (expression === page().state.redundancy) return report(shown);
    navigate({ redundancy: expression, go: '1', view: '', img: '' });
  }

  preset.addEventListener('change', () => {
    custom = preset.value === 'custom';
    if (custom) {
      form.hidden = false;
      input.focus();
      return;
    }
    form.hidden = true;
    showError('');
    apply(preset.value);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply(input.value.trim());
  });

  const dialog = el('dialog', { id: 'covers', class: 'similar', 'aria-labelledby': 'covers-heading' },
    el('div', { class: 'viewer-bar' },
      el('h2', { id: 'covers-heading', class: 'similar-heading', 'data-i18n': 'redundancy.heading' }),
      el('button', { type: 'button', id: 'covers-close', class: 'icon', 'data-i18n-aria': 'redundancy.close' },
        el('span', { 'aria-hidden': 'true', text: '✕' }))),
    el('div', { class: 'similar-body' },
      el('p', { id: 'covers-status', class: 'status', role: 'status', 'aria-live': 'polite' }),
      el('ul', { id: 'covers-grid', class: 'similar-grid' })));
  document.body.append(dialog);
  let expanding = null;
  const close = () => {
    expanding?.abort();
    if (dialog.open) dialog.close();
  };
  $('#covers-close').addEventListener('click', close);
  dialog.addEventListener('click', (e) => { if (e.target === dialog) close(); });

  async function expand(item) {
    const { t, lang, state } = page();
    expanding?.abort();
    expanding = new AbortController();
    const status = $('#covers-status');
    const grid = $('#covers-grid');
    grid.replaceChildren();
    status.textContent = t('redundancy.loading');
    if (!dialog.open) dialog.showModal();
    try {
      const url = `${apiUrl(state, 0, EXPAND_ITEMS)}&expand=${encodeURIComponent(item.imgDigest)}`;
      const r = await fetch(url, { signal: expanding.signal });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(body.error?.message || `HTTP ${r.status}`);
      const items = body.responseItems || [];
      grid.replaceChildren(...items.map((m) => {
        const alt = describe(m);
        const label = [formatTimestamp(lang, m.imgTstamp), m.imgWidth && m.imgHeight
          ? `${m.imgWidth} × ${m.imgHeight}` : '', m.pageHost || ''].filter(Boolean).join(' · ');
        return el('li', { class: 'similar-item', 'data-digest': m.imgDigest },
          el('a', { href: m.pageLinkToArchive || m.imgLinkToArchive || '#', target: '_blank',
            rel: 'noopener noreferrer', title: alt },
          el('img', { src: thumbUrl(m, state.safe), alt, loading: 'lazy', decoding: 'async' })),
          el('span', { class: 'similar-distance', text: label }));
      }));
      status.textContent = t('redundancy.count', { n: formatNumber(lang, items.length) });
    } catch (e) {
      if (e.name === 'AbortError') return;
      status.textContent = t('redundancy.error', { message: e.message });
    }
  }

  return {
    // The control shows the page state.
    sync() {
      const { state } = page();
      const v = state.redundancy;
      const isPreset = PRESETS.includes(v.toLowerCase()) || (v === '' && !custom);
      if (v) custom = false;
      preset.value = isPreset ? v.toLowerCase() : 'custom';
      form.hidden = isPreset;
      if (document.activeElement !== input && v && !isPreset) input.value = v;
    },
    // The cover's account from the first page of results (`body.redundancy`, or none).
    summary: report,
    // The badge of a kept result that covers others, or null.
    badge(item) {
      if (!(item.covers > 0)) return null;
      const { t, lang } = page();
      const n = formatNumber(lang, item.covers);
      return el('span', { class: 'cover-badge', 'data-covers': String(item.covers),
        text: t('redundancy.badge', { n }), title: t('redundancy.badgeTitle', { n }) });
    },
    // The viewer's "Show what this covers" for `item` (removed for items that cover nothing).
    viewer(item) {
      $('#viewer-covers')?.remove();
      if (!item || !(item.covers > 0)) return;
      const { t, lang } = page();
      $('#viewer-similar').after(el('button', { type: 'button', id: 'viewer-covers',
        text: t('redundancy.show', { n: formatNumber(lang, item.covers) }), onclick: () => expand(item) }));
    },
    close,
  };
}
