/** What a scroll box of fixed-height rows shows: its scroll position and height, the row height and count. */
export interface Viewport {
  readonly scrollTop: number;
  readonly height: number;
  readonly rowHeight: number;
  readonly rows: number;
  /** Rows drawn beyond each edge, so a scroll of a few rows shows rows already drawn. */
  readonly overscan: number;
}

/** The rows to draw, `first` inclusive to `end` exclusive: the ones in view and `overscan` more on each side. */
export interface RowRange {
  readonly first: number;
  readonly end: number;
}

/**
 * Which rows a virtualised table draws. Pure, so a 5,000-row trace costs the DOM of the ~20 rows in view, and
 * the page's layout never depends on how many rows exist (a spacer above and below takes their height).
 */
export function visibleRows(view: Viewport): RowRange {
  if (view.rows <= 0 || view.rowHeight <= 0) return { first: 0, end: 0 };
  const top = Math.floor(Math.max(0, view.scrollTop) / view.rowHeight);
  const bottom = Math.ceil((Math.max(0, view.scrollTop) + Math.max(0, view.height)) / view.rowHeight);
  const first = Math.min(view.rows, Math.max(0, top - view.overscan));
  const end = Math.min(view.rows, Math.max(first, bottom + view.overscan));
  return { first, end };
}

/** The scroll position that brings `row` into view (unchanged when it already is), for keyboard and "jump to". */
export function scrollToShow(row: number, view: Pick<Viewport, 'scrollTop' | 'height' | 'rowHeight'>): number {
  const top = row * view.rowHeight;
  const bottom = top + view.rowHeight;
  if (top < view.scrollTop) return top;
  if (bottom > view.scrollTop + view.height) return Math.max(0, bottom - view.height);
  return view.scrollTop;
}
