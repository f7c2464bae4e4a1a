// Justified rows: images keep their aspect ratio, every full row exactly fills the width and
// rows are about `target` px high (never taller than 1.6 × target). The last, incomplete row
// keeps the target height (left-aligned).
export function justify(aspects, width, target, gap = 6) {
  const rows = [];
  let row = [];
  let sum = 0;
  const flush = (full) => {
    if (!row.length) return;
    const gaps = gap * (row.length - 1);
    let h = full ? (width - gaps) / sum : target;
    h = Math.min(h, target * 1.6);
    rows.push({ height: h, items: row.map((i) => ({ index: i, width: aspects[i] * h })) });
    row = [];
    sum = 0;
  };
  for (let i = 0; i < aspects.length; i++) {
    const a = Math.min(Math.max(aspects[i] || 1, 0.25), 5);
    aspects[i] = a;
    row.push(i);
    sum += a;
    if (sum * target + gap * (row.length - 1) >= width) flush(true);
  }
  flush(false);
  return rows;
}
