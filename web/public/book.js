// Book images in the viewer (docs/books.md "Indexing"): the book, its authors, year, subjects,
// language and the page, linked to the book viewer's page (a scanned book's page is not
// archived, so its pageURL is the live viewer and there is no pageLinkToArchive), or for an
// EPUB the chapter, archived, opened in replay.
import { $, el } from './dom.js';

// The book filters (language, publication years) beside the Source filter: shown while the
// Source is Books (state.js keeps them only then). `filterChange(key, value)` navigates.
export function syncBookFilters(state) {
  $('#book-filters').hidden = state.kind !== 'book';
  $('#f-booklang').value = state.booklang;
  $('#f-pubfrom').value = state.pubfrom;
  $('#f-pubto').value = state.pubto;
}

export function wireBookFilters(filterChange) {
  $('#f-booklang').addEventListener('change', (e) => filterChange('booklang', e.target.value.trim()));
  $('#f-pubfrom').addEventListener('change', (e) => filterChange('pubfrom', e.target.value.trim()));
  $('#f-pubto').addEventListener('change', (e) => filterChange('pubto', e.target.value.trim()));
  for (const id of ['#f-booklang', '#f-pubfrom', '#f-pubto']) {
    $(id).addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); e.target.dispatchEvent(new Event('change')); }
    });
  }
}

// Where "Found on page" leads: the archived page, else a book's viewer page.
export function pageHref(item) {
  if (item.pageLinkToArchive) return item.pageLinkToArchive;
  return item.kind === 'book' && /^https?:\/\//.test(item.pageURL || '') ? item.pageURL : '#';
}

// Adds the book's rows to the viewer's list; nothing for a web image.
export function bookRows(item, row, t) {
  if (item.kind !== 'book') return;
  const link = (href, text) => el('a', { href, target: '_blank', rel: 'noopener noreferrer', text });
  const epub = item.bookFormat === 'epub';
  // A scanned book is an Internet Archive item; an EPUB's identifier names no page to open.
  const itemUrl = !epub && item.bookId ? `https://archive.org/details/${encodeURIComponent(item.bookId)}` : '';
  row(t('viewer.book'), itemUrl ? link(itemUrl, item.bookTitle || item.bookId) : item.bookTitle || '');
  row(t('viewer.author'), item.author || []);
  row(t('viewer.pubYear'), item.pubYear ? String(item.pubYear) : '');
  row(t('viewer.subject'), (item.subject || []).join(', '));
  row(t('viewer.language'), item.language || '');
  if (epub) {
    // The chapter is archived: it opens in replay (pageLinkToArchive), like a web page.
    const chapter = item.bookChapter || (item.bookPageIndex ? String(item.bookPageIndex) : '');
    row(t('viewer.bookChapter'), el('span', { class: 'book-page', text: chapter }),
      item.pageLinkToArchive ? link(item.pageLinkToArchive, t('viewer.openBookChapter')) : '');
    return;
  }
  const page = item.bookPage ? t('viewer.bookPageValue', { page: item.bookPage }) : t('viewer.bookPageUnnumbered');
  row(t('viewer.bookPage'), el('span', { class: 'book-page', text: page }), link(item.pageURL, t('viewer.openBookPage')));
}
