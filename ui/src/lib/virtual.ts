// Which rows of a long list of rows of one height a scrolled box shows, so that only those (and a
// few either side, for a scroll that outruns rendering) are in the DOM.

/** The rows [start, end) to render: those in the box's view, `overscan` more on each side, within [0, count). */
export function visibleRows(scrollTop: number, viewHeight: number, rowHeight: number, count: number, overscan: number): { start: number; end: number } {
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewHeight)) / rowHeight);
  return { start: Math.max(0, Math.min(count, first - overscan)), end: Math.min(count, last + overscan) };
}

/**
 * The scrollTop that brings row `index` fully into the box with the least movement: unchanged
 * when it is already in view.
 */
export function scrollToRow(index: number, scrollTop: number, viewHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  // A view shorter than a row shows the row's top.
  if (top + rowHeight > scrollTop + viewHeight) return Math.min(top, Math.max(0, top + rowHeight - viewHeight));
  return scrollTop;
}
