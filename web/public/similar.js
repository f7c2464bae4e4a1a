// "More like this" (viewer) and search by an uploaded image (header): near-duplicates from
// /imagesearch/similar (docs/api.md), nearest first, in a dialog over the page; "Visually
// similar" (viewer): mode=visual, the near-duplicates and then the images most alike by their
// CNN embedding. An upload is sent as the request body and never kept by the server.
import { $, el } from './dom.js';
import { API_FIELDS, thumbUrl, thumbSrcset, describe } from './state.js';

const MAX_ITEMS = 48;
const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;  // the server refuses larger bodies (413)

function similarUrl(params, safe) {
  const p = new URLSearchParams(params);
  p.set('safeSearch', safe === 'off' ? 'off' : 'on');
  p.set('maxItems', String(MAX_ITEMS));
  p.set('fields', API_FIELDS.join(','));
  return `/imagesearch/similar?${p.toString()}`;
}

// `page()` gives { t, safe } as they are when the dialog opens.
export function initSimilar(page) {
  const dialog = $('#similar');
  const status = $('#similar-status');
  const grid = $('#similar-grid');
  const query = $('#similar-query');
  let controller = null;
  let queryObjectUrl = null;

  function tile(item, t, safe) {
    const alt = describe(item);
    const label = item.distance === 0 ? t('similar.same')
      : item.distance != null ? t('similar.distance', { d: item.distance })
        : t('similar.similarity', { p: Math.round((item.similarity || 0) * 100) });
    return el('li', { class: 'similar-item', 'data-digest': item.imgDigest },
      el('a', { href: item.pageLinkToArchive || item.imgLinkToArchive || '#', target: '_blank',
        rel: 'noopener noreferrer', title: alt },
      el('img', { src: thumbUrl(item, safe), srcset: thumbSrcset(item, safe), alt, loading: 'lazy', decoding: 'async' })),
      el('span', { class: 'similar-distance', text: label }));
  }

  function open(heading, querySrc, message) {
    controller?.abort();
    $('#similar-heading').textContent = heading;
    query.src = querySrc || '';
    query.alt = page().t('similar.queryAlt');
    query.hidden = !querySrc;
    grid.replaceChildren();
    status.textContent = message;
    if (!dialog.open) dialog.showModal();
  }

  async function show(heading, querySrc, request) {
    const { t, safe } = page();
    open(heading, querySrc, t('similar.loading'));
    controller = new AbortController();
    try {
      const r = await fetch(request.url, { ...request.init, signal: controller.signal });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(body.error?.message || `HTTP ${r.status}`);
      const items = body.responseItems || [];
      grid.replaceChildren(...items.map((item) => tile(item, t, safe)));
      grid.dataset.mode = body.query?.mode || 'near';
      status.textContent = !items.length ? t('similar.none')
        : body.query?.mode === 'visual' ? t('similar.countVisual', { n: body.totalItems })
          : t('similar.count', { n: body.totalItems, d: body.query.distance });
    } catch (e) {
      if (e.name === 'AbortError') return;
      status.textContent = t('similar.error', { message: e.message });
    }
  }

  function close() {
    controller?.abort();
    if (dialog.open) dialog.close();
  }
  dialog.addEventListener('close', () => {
    if (queryObjectUrl) URL.revokeObjectURL(queryObjectUrl);
    queryObjectUrl = null;
  });
  dialog.addEventListener('click', (e) => { if (e.target === dialog) close(); });
  $('#similar-close').addEventListener('click', close);

  return {
    // The viewer's image: by its digest; mode 'visual' adds the visually similar images.
    byDigest(item, mode = 'near') {
      const { t, safe } = page();
      const visual = mode === 'visual';
      show(t(visual ? 'similar.headingVisual' : 'similar.headingDigest'), thumbUrl(item, safe), {
        url: similarUrl(visual ? { digest: item.imgDigest, mode } : { digest: item.imgDigest }, safe),
      });
    },
    // A picture from the visitor's disk.
    byUpload(file) {
      const { t, safe } = page();
      if (file.size > MAX_UPLOAD_BYTES) {
        open(t('similar.headingUpload'), '', t('similar.tooBig'));
        return;
      }
      queryObjectUrl = URL.createObjectURL(file);
      show(t('similar.headingUpload'), queryObjectUrl, {
        url: similarUrl({}, safe),
        init: { method: 'POST', body: file,
          headers: { 'Content-Type': file.type || 'application/octet-stream' } },
      });
    },
  };
}
