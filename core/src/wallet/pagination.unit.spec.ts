// Proves the dashboard pagination: page count rounded up, a 5-button window around the current page, and the disabled ends.
import { describe, expect, it } from 'vitest';
import { paginate } from './pagination.js';

const labels = (page: number, total: number, limit = 10) => paginate({ page, total, limit }).buttons.map((b) => b.label);

describe('paginate', () => {
  it('given no transactions, when paginated, then there are no pages and every control is disabled', () => {
    expect(paginate({ page: 0, total: 0, limit: 10 })).toMatchObject({
      pageCount: 0,
      buttons: [],
      firstDisabled: true,
      prevDisabled: true,
      nextDisabled: true,
      lastDisabled: true,
    });
  });

  it('given totals, when paginated, then the page count is total / limit rounded up', () => {
    expect(paginate({ page: 0, total: 1, limit: 10 }).pageCount).toBe(1);
    expect(paginate({ page: 0, total: 10, limit: 10 }).pageCount).toBe(1);
    expect(paginate({ page: 0, total: 11, limit: 10 }).pageCount).toBe(2);
    expect(paginate({ page: 0, total: 1_000_000, limit: 10 }).pageCount).toBe(100_000);
  });

  it('given 10 pages, when on various pages, then the window of 5 keeps the current page centred where it can', () => {
    expect(labels(0, 100)).toEqual([1, 2, 3, 4, 5]);
    expect(labels(1, 100)).toEqual([1, 2, 3, 4, 5]);
    expect(labels(2, 100)).toEqual([1, 2, 3, 4, 5]);
    expect(labels(3, 100)).toEqual([2, 3, 4, 5, 6]);
    expect(labels(5, 100)).toEqual([4, 5, 6, 7, 8]);
    expect(labels(8, 100)).toEqual([6, 7, 8, 9, 10]);
    expect(labels(9, 100)).toEqual([6, 7, 8, 9, 10]);
  });

  it('given fewer than 5 pages, when paginated, then every page has a button', () => {
    expect(labels(1, 25)).toEqual([1, 2, 3]);
  });

  it('given the first page, when paginated, then First and Prev are disabled and the current button is marked', () => {
    const p = paginate({ page: 0, total: 100, limit: 10 });
    expect([p.firstDisabled, p.prevDisabled, p.nextDisabled, p.lastDisabled]).toEqual([true, true, false, false]);
    expect(p.buttons.filter((b) => b.current).map((b) => b.page)).toEqual([0]);
    expect([p.nextPage, p.lastPage]).toEqual([1, 9]);
  });

  it('given the last page, when paginated, then Next and Last are disabled', () => {
    const p = paginate({ page: 9, total: 100, limit: 10 });
    expect([p.firstDisabled, p.prevDisabled, p.nextDisabled, p.lastDisabled]).toEqual([false, false, true, true]);
    expect(p.prevPage).toBe(8);
  });

  it('given a page past the end, when paginated, then the last window shows, none is current and Prev goes to the last page', () => {
    const p = paginate({ page: 40, total: 100, limit: 10 });
    expect(p.buttons.map((b) => b.label)).toEqual([6, 7, 8, 9, 10]);
    expect(p.buttons.some((b) => b.current)).toBe(false);
    expect([p.nextDisabled, p.lastDisabled, p.prevPage]).toEqual([true, true, 9]);
  });

  it('given invalid input, when paginated, then it throws', () => {
    expect(() => paginate({ page: -1, total: 10, limit: 10 })).toThrow(RangeError);
    expect(() => paginate({ page: 0, total: 10, limit: 0 })).toThrow(RangeError);
    expect(() => paginate({ page: 0.5, total: 10, limit: 10 })).toThrow(RangeError);
    expect(() => paginate({ page: 0, total: Number.NaN, limit: 10 })).toThrow(RangeError);
  });
});
