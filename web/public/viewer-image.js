// The viewer's picture: the archived image itself at its own size (the replay's im_ form,
// /wayback/{ts}im_/{url}: served with the archived-content policy, sandboxed, and as an <img>
// an SVG never runs script), scaled down only where the viewer is smaller. The thumbnail
// stands in where the archive cannot give it (docs/ui.md).
import { thumbUrl, replayImageUrl } from './state.js';

export function showOriginal(img, item, safe) {
  const thumb = thumbUrl(item, safe);
  const original = replayImageUrl(item);
  img.width = item.imgWidth || 0;
  img.height = item.imgHeight || 0;
  img.removeAttribute('srcset');
  img.dataset.original = original;
  img.classList.remove('fallback');
  img.onerror = () => {
    img.onerror = null;
    if (img.dataset.original !== original) return;  // another image since
    img.classList.add('fallback');
    img.src = thumb;
  };
  img.src = original;
}
