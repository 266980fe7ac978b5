import { scrollToShow, visibleRows } from './visible-rows.js';

describe('the rows a virtualised table draws', () => {
  const view = { scrollTop: 0, height: 220, rowHeight: 22, rows: 5_010, overscan: 5 };

  it('draws the rows in view and the overscan after them, at the top', () => {
    expect(visibleRows(view)).toEqual({ first: 0, end: 15 });
  });

  it('draws the overscan on both sides in the middle, whatever the number of rows', () => {
    expect(visibleRows({ ...view, scrollTop: 2_200 })).toEqual({ first: 95, end: 115 });
    expect(visibleRows({ ...view, scrollTop: 2_200, rows: 5_000_000 })).toEqual({ first: 95, end: 115 });
  });

  it('stops at the last row, and draws nothing for an empty trace', () => {
    expect(visibleRows({ ...view, scrollTop: 22 * 5_010 - 220 })).toEqual({ first: 4_995, end: 5_010 });
    expect(visibleRows({ ...view, scrollTop: 10_000_000 })).toEqual({ first: 5_010, end: 5_010 });
    expect(visibleRows({ ...view, rows: 0 })).toEqual({ first: 0, end: 0 });
    expect(visibleRows({ ...view, rows: 3 })).toEqual({ first: 0, end: 3 });
  });

  it('scrolls just enough to show a row above or below the view, and not at all for a row in view', () => {
    expect(scrollToShow(50, { scrollTop: 0, height: 220, rowHeight: 22 })).toBe(51 * 22 - 220);
    expect(scrollToShow(2, { scrollTop: 440, height: 220, rowHeight: 22 })).toBe(44);
    expect(scrollToShow(22, { scrollTop: 440, height: 220, rowHeight: 22 })).toBe(440);
  });
});
