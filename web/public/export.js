// The results page's Export menu (docs/ui.md, docs/export.md): the whole result set of the
// search shown, every format a download from /imagesearch/export with the search's own
// parameters. The export streams, so the browser's downloads show its progress as it comes.
import { el } from './dom.js';
import { apiUrl } from './state.js';

export const EXPORT_FORMATS = ['csv', 'jsonl', 'warc', 'zip', 'wacz'];

export function exportUrl(state, format) {
  const p = new URLSearchParams(apiUrl(state, 0, 0).split('?')[1]);
  for (const k of ['offset', 'maxItems', 'fields', 'redundancy']) p.delete(k);  // exports take every result
  p.set('format', format);
  return `/imagesearch/export?${p.toString()}`;
}

export function exportMenu(state, total, t, formatCount) {
  const list = el('ul', { class: 'export-formats' });
  for (const f of EXPORT_FORMATS)
    list.append(el('li', {}, el('a', { href: exportUrl(state, f), download: true, 'data-format': f,
      text: t(`export.${f}`) })));
  return el('details', { class: 'export' }, el('summary', { text: t('export.menu') }), list,
    el('p', { class: 'detail', text: t('export.note', { count: formatCount(total) }) }));
}
