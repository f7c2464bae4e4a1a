// The results page's Export menu (docs/ui.md, docs/export.md): the whole result set of the
// search shown, every format a download from /imagesearch/export with the search's own
// parameters. The export streams, so the browser's downloads show its bytes as they come; the
// menu shows how many images it has written, read from /imagesearch/export/progress with a
// token the link carries (export_progress.hpp).
import { el } from './dom.js';
import { apiUrl } from './state.js';

export const EXPORT_FORMATS = ['csv', 'jsonl', 'warc', 'zip', 'wacz'];
const POLL_MS = 500;
const WAIT_POLLS = 60;  // 404s (the export not begun yet) before giving up: 30 s

export function exportUrl(state, format) {
  const p = new URLSearchParams(apiUrl(state, 0, 0).split('?')[1]);
  for (const k of ['offset', 'maxItems', 'fields', 'redundancy']) p.delete(k);  // exports take every result
  p.set('format', format);
  return `/imagesearch/export?${p.toString()}`;
}

// One line for the latest export, kept across the status line's redraws.
const progress = { line: null, timer: null, token: null };

function randomToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function follow(token, format, t, formatCount) {
  clearTimeout(progress.timer);
  progress.token = token;
  const line = progress.line;
  const name = format.toUpperCase();
  line.hidden = false;
  line.classList.remove('done');
  line.textContent = t('export.progressWaiting', { format: name });
  let waits = 0;
  const poll = async () => {
    if (progress.token !== token) return;
    let body = null;
    try {
      const r = await fetch(`/imagesearch/export/progress?token=${token}`, { headers: { Accept: 'application/json' } });
      body = r.ok ? await r.json() : null;
    } catch { body = null; }
    if (progress.token !== token) return;
    if (body) {
      line.dataset.images = String(body.images);
      line.dataset.total = String(body.total);
      if (body.done) {
        line.classList.add('done');
        line.textContent = t('export.progressDone', { format: name, n: formatCount(body.images) });
        return;
      }
      line.textContent = t('export.progress', { format: name, n: formatCount(body.images), total: formatCount(body.total) });
    } else if (++waits > WAIT_POLLS) {
      line.hidden = true;
      return;
    }
    progress.timer = setTimeout(poll, POLL_MS);
  };
  progress.timer = setTimeout(poll, POLL_MS / 2);
}

export function exportMenu(state, total, t, formatCount) {
  if (!progress.line) progress.line = el('p', { class: 'export-progress', role: 'status', hidden: true });
  const list = el('ul', { class: 'export-formats' });
  for (const f of EXPORT_FORMATS) {
    const a = el('a', { href: exportUrl(state, f), download: true, 'data-format': f, text: t(`export.${f}`) });
    // Each download its own token, set as it starts (the default action follows the handler).
    a.addEventListener('click', () => {
      const token = randomToken();
      a.href = `${exportUrl(state, f)}&progress=${token}`;
      follow(token, f, t, formatCount);
    });
    list.append(el('li', {}, a));
  }
  // The progress line beside the menu, so that it stays in sight when the menu closes.
  const out = document.createDocumentFragment();
  out.append(el('details', { class: 'export' }, el('summary', { text: t('export.menu') }), list,
    el('p', { class: 'detail', text: t('export.note', { count: formatCount(total) }) })), progress.line);
  return out;
}
