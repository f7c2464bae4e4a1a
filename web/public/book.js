// Book images in the viewer (docs/books.md "Indexing"): the book, its authors, year, subjects,
// language and the page, linked to the book viewer's page (a book page is not archived, so
// its pageURL is the live viewer and there is no pageLinkToArchive).
import { el } from './dom.js';

// Where "Found on page" leads: the archived page, else a book's viewer page.
export function pageHref(item) {
  if (item.pageLinkToArchive) return item.pageLinkToArchive;
  return item.kind === 'book' && /^https?:\/\//.test(item.pageURL || '') ? item.pageURL : '#';
}

// Adds the book's rows to the viewer's list; nothing for a web image.
export function bookRows(item, row, t) {
  if (item.kind !== 'book') return;
  const link = (href, text) => el('a', { href, target: '_blank', rel: 'noopener noreferrer', text });
  const itemUrl = item.bookId ? `https://archive.org/details/${encodeURIComponent(item.bookId)}` : '';
  row(t('viewer.book'), itemUrl ? link(itemUrl, item.bookTitle || item.bookId) : item.bookTitle || '');
  row(t('viewer.author'), item.author || []);
  row(t('viewer.pubYear'), item.pubYear ? String(item.pubYear) : '');
  row(t('viewer.subject'), (item.subject || []).join(', '));
  row(t('viewer.language'), item.language || '');
  const page = item.bookPage ? t('viewer.bookPageValue', { page: item.bookPage }) : t('viewer.bookPageUnnumbered');
  row(t('viewer.bookPage'), el('span', { class: 'book-page', text: page }), link(item.pageURL, t('viewer.openBookPage')));
}
