// The page state lives in the URL query string, so every search, filter and open image is a
// shareable link and back/forward work:
//   q, from, to (years), size, type, site, collection, kind (web|book), booklang, pubfrom and
//   pubto (book images: language codes, publication years; book.js), safe=off (on is the default),
//   decorative=show (spacers, bars, icons and emoji too; hidden by default), lang,
//   view=<result position, 0-based> and img=<imgDigest> for the open viewer,
//   redundancy=<preset or coverage expression> (redundancy.js).
export const DEFAULTS = {
  q: '', from: '', to: '', size: '', type: '', site: '', collection: '', kind: '', safe: 'on',
  booklang: '', pubfrom: '', pubto: '',
  decorative: 'hide', lang: '', view: '', img: '', go: '', redundancy: '',
};
// go='1' means "a search was made" (an empty query lists every image); it is written as q=.
const KEYS = Object.keys(DEFAULTS).filter((k) => k !== 'go');
const BOOK_FILTER_KEYS = ['booklang', 'pubfrom', 'pubto'];
export const FILTER_KEYS = ['from', 'to', 'size', 'type', 'site', 'collection', 'kind',
  'booklang', 'pubfrom', 'pubto', 'redundancy'];

export function readState(search = location.search) {
  const p = new URLSearchParams(search);
  const s = { ...DEFAULTS };
  for (const k of KEYS) if (p.has(k)) s[k] = p.get(k).trim();
  s.go = p.has('q') ? '1' : '';
  if (s.safe !== 'off') s.safe = 'on';
  if (s.decorative !== 'show') s.decorative = 'hide';
  if (!/^\d{4}$/.test(s.from)) s.from = '';
  if (!/^\d{4}$/.test(s.to)) s.to = '';
  if (!['sm', 'md', 'lg'].includes(s.size)) s.size = '';
  if (!['web', 'book'].includes(s.kind)) s.kind = '';
  // Book filters apply to book images only: kept while the Source is Books.
  if (s.kind !== 'book' || !/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*(,\s*[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*)*$/.test(s.booklang)) s.booklang = '';
  if (s.kind !== 'book' || !/^\d{1,4}$/.test(s.pubfrom)) s.pubfrom = '';
  if (s.kind !== 'book' || !/^\d{1,4}$/.test(s.pubto)) s.pubto = '';
  if (!/^\d+$/.test(s.view)) s.view = '';
  return s;
}

export function stateToSearch(s) {
  const p = new URLSearchParams();
  for (const k of KEYS) {
    if (BOOK_FILTER_KEYS.includes(k) && s.kind !== 'book') continue;
    if (k === 'q' && (s.q || s.go)) p.set('q', s.q);
    else if (s[k] && s[k] !== DEFAULTS[k]) p.set(k, s[k]);
  }
  const str = p.toString();
  return str ? `?${str}` : location.pathname;
}

// The search itself (not lang/viewer): two states with the same key show the same results.
export function searchKey(s) {
  return JSON.stringify([s.q, ...FILTER_KEYS.map((k) => s[k]), s.safe, s.decorative]);
}

export function hasSearch(s) {
  return s.go === '1' || s.q !== '' || FILTER_KEYS.some((k) => s[k] !== '');
}

export function hasFilters(s) {
  return FILTER_KEYS.some((k) => s[k] !== '');
}

// Book images' fields (docs/api.md "Book images"; the viewer shows them: book.js).
export const BOOK_FIELDS = ['kind', 'bookTitle', 'author', 'pubYear', 'subject', 'language',
  'bookPage', 'bookPageIndex', 'bookId', 'bookFormat', 'bookChapter'];

export const API_FIELDS = [
  'imgDigest', 'imgSrc', 'imgMimeType', 'imgHeight', 'imgWidth', 'imgTstamp', 'imgTstampLatest',
  'imgTitle', 'imgAlt', 'imgCaption', 'pageURL', 'pageTstamp', 'pageTitle', 'pageHost',
  'collection', 'imgLinkToArchive', 'pageLinkToArchive', 'matchingImages', 'matchingPages',
  'groupId', 'groupSize', 'collapsedImages', ...BOOK_FIELDS,
];

// The members of a near-duplicate group (docs/api.md, group: and collapse).
export function groupUrl(groupId, safe, maxItems) {
  const p = new URLSearchParams({ q: `group:${groupId}`, collapse: 'off', decorative: 'show',
    safeSearch: safe === 'off' ? 'off' : 'on', maxItems: String(maxItems),
    fields: API_FIELDS.join(',') });
  return `/imagesearch?${p.toString()}`;
}

export function apiUrl(s, offset, maxItems) {
  const p = new URLSearchParams();
  p.set('q', s.q);
  if (s.from) p.set('from', s.from);
  if (s.to) p.set('to', s.to);
  if (s.size) p.set('size', s.size);
  if (s.type) p.set('type', s.type);
  if (s.site) p.set('siteSearch', s.site);
  if (s.collection) p.set('collection', s.collection);
  if (s.kind) p.set('kind', s.kind);
  if (s.booklang) p.set('language', s.booklang);
  if (s.pubfrom) p.set('pubYearFrom', s.pubfrom);
  if (s.pubto) p.set('pubYearTo', s.pubto);
  p.set('safeSearch', s.safe === 'off' ? 'off' : 'on');
  if (s.decorative === 'show') p.set('decorative', 'show');
  if (s.redundancy) p.set('redundancy', s.redundancy);
  p.set('offset', String(offset));
  p.set('maxItems', String(maxItems));
  p.set('fields', API_FIELDS.join(','));
  return `/imagesearch?${p.toString()}`;
}

// Advanced search → the API's query syntax. The API matches any word; a quoted phrase must
// match, so "all of these words" become one-word phrases.
function words(str) {
  return String(str || '').replace(/["]/g, ' ').split(/\s+/).filter(Boolean);
}
export function advancedToQuery({ all = '', phrase = '', any = '', none = '' }) {
  const parts = [];
  for (const w of words(all)) parts.push(`"${w}"`);
  const ph = words(phrase).join(' ');
  if (ph) parts.push(`"${ph}"`);
  for (const w of words(any)) parts.push(w.replace(/^-+/, ''));
  for (const w of words(none)) parts.push(`-${w.replace(/^-+/, '')}`);
  return parts.join(' ');
}

// The inverse, for filling the advanced form from a query (best effort).
export function queryToAdvanced(q) {
  const out = { all: [], phrase: '', any: [], none: [] };
  const re = /(-?)"([^"]*)"|(\S+)/g;
  let m;
  while ((m = re.exec(q || ''))) {
    if (m[2] !== undefined) {
      const w = m[2].trim();
      if (!w) continue;
      if (m[1]) out.none.push(`"${w}"`);
      else if (!w.includes(' ')) out.all.push(w);
      else if (!out.phrase) out.phrase = w;
      else out.all.push(...w.split(/\s+/));
    } else if (m[3].startsWith('-') && m[3].length > 1) {
      out.none.push(m[3].slice(1));
    } else {
      out.any.push(m[3]);
    }
  }
  return { all: out.all.join(' '), phrase: out.phrase, any: out.any.join(' '), none: out.none.join(' ') };
}

// Thumbnail and full-size image addresses on this server. Thumbnails of the safe-search view
// go through /thumbnail/safe/, which refuses images that safe search hides.
export function thumbUrl(item, safe) {
  return `/thumbnail/${safe === 'off' ? 'all' : 'safe'}/${item.imgTstamp}/${item.imgSrc}`;
}
// The thumbnail (≤ 200 px) for ordinary screens, the high-density one (≤ 400 px, the
// thumbnail itself where none was made) for devicePixelRatio 2: with `object-fit:
// scale-down` an image is then never drawn larger than its pixels (docs/ui.md).
// An image URL with a comma or a space (which srcset cannot hold as they are) gets none.
export function thumbSrcset(item, safe) {
  if (/[\s,]/.test(item.imgSrc || '')) return undefined;
  const two = `/thumbnail/${safe === 'off' ? 'all' : 'safe'}/2x/${item.imgTstamp}/${item.imgSrc}`;
  return `${thumbUrl(item, safe)} 1x, ${two} 2x`;
}
export function replayImageUrl(item) {
  return `/wayback/${item.imgTstamp}im_/${item.imgSrc}`;
}
// The list of every capture of a URL (image or page).
export function capturesUrl(url) {
  return `/wayback/*/${url}`;
}

// Best text describing an image, for alt attributes.
export function describe(item) {
  const first = (v) => (Array.isArray(v) ? v.find((x) => x && x.trim()) : v) || '';
  const alt = first(item.imgAlt) || first(item.imgTitle) || first(item.imgCaption);
  if (alt) return alt.trim().slice(0, 200);
  const file = decodeURIComponent(String(item.imgSrc || '').split(/[?#]/)[0].split('/').pop() || '')
    .replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ').trim();
  const page = (item.pageTitle || '').trim();
  return [file, page].filter(Boolean).join(' — ').slice(0, 200) || item.imgSrc || '';
}
