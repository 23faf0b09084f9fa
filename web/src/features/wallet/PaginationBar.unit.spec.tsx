// Proves the pagination bar follows the spec: First, Prev, a window of 5 numbers around the
// current page (bold, disabled, aria-current), Next, Last, with the ends disabled on the first
// and last pages, ceil(total/limit) pages, 0-based page requests, and nothing for no data.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byRole, click, textOf } from '../../../test/dom.js';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import { PaginationBar } from './PaginationBar.js';

let rendered: Rendered | undefined;
afterEach(() => rendered?.unmount());

async function renderBar(page: number, total: number, limit = 10, language: TestLanguage = 'en') {
  const onPageChange = vi.fn<(page: number) => void>();
  rendered = await render(<PaginationBar page={page} total={total} limit={limit} onPageChange={onPageChange} />, { language });
  const { container } = rendered;
  const numbers = () =>
    [...container.querySelectorAll('li button')].map((button) => button.textContent).filter((text) => /^\d+$/.test(text ?? ''));
  const disabled = (name: string) => byRole(container, 'button', name).getAttribute('aria-disabled') === 'true';
  return { container, onPageChange, numbers, disabled };
}

describe('PaginationBar', () => {
  it('given 25 transactions of 10 a page on the first page, then 3 pages show and First and Prev are disabled', async () => {
    const { container, numbers, disabled, onPageChange } = await renderBar(0, 25);
    expect(numbers()).toEqual(['1', '2', '3']);
    expect(disabled('First')).toBe(true);
    expect(disabled('Prev')).toBe(true);
    expect(disabled('Next')).toBe(false);
    expect(disabled('Last')).toBe(false);
    const current = byRole(container, 'button', 'Page 1');
    expect(current.getAttribute('aria-current')).toBe('page');
    expect(current.getAttribute('aria-disabled')).toBe('true');
    expect(current.classList.contains('pagination-current')).toBe(true);
    expect(textOf(container)).toContain('Page 1 of 3');

    click(byRole(container, 'button', 'First'));
    click(byRole(container, 'button', 'Prev'));
    click(current);
    expect(onPageChange).not.toHaveBeenCalled();
    click(byRole(container, 'button', 'Next'));
    click(byRole(container, 'button', 'Last'));
    click(byRole(container, 'button', 'Page 3'));
    expect(onPageChange.mock.calls).toEqual([[1], [2], [2]]);
  });

  it('given 10 pages with the 6th on screen, then the window shows 4 to 8 and every end button works', async () => {
    const { container, numbers, disabled, onPageChange } = await renderBar(5, 100);
    expect(numbers()).toEqual(['4', '5', '6', '7', '8']);
    expect(byRole(container, 'button', 'Page 6').getAttribute('aria-current')).toBe('page');
    expect(byRole(container, 'button', 'Page 5').getAttribute('aria-current')).toBeNull();
    for (const name of ['First', 'Prev', 'Next', 'Last']) expect(disabled(name), name).toBe(false);
    click(byRole(container, 'button', 'First'));
    click(byRole(container, 'button', 'Prev'));
    click(byRole(container, 'button', 'Next'));
    click(byRole(container, 'button', 'Last'));
    expect(onPageChange.mock.calls).toEqual([[0], [4], [6], [9]]);
  });

  it('given the last page, then Next and Last are disabled and the window ends on it', async () => {
    const { container, numbers, disabled } = await renderBar(9, 100);
    expect(numbers()).toEqual(['6', '7', '8', '9', '10']);
    expect(disabled('Next')).toBe(true);
    expect(disabled('Last')).toBe(true);
    expect(disabled('Prev')).toBe(false);
    expect(textOf(container)).toContain('Page 10 of 10');
  });

  it('given 21 transactions of 10 a page, then the page count rounds up to 3', async () => {
    const { numbers } = await renderBar(0, 21);
    expect(numbers()).toEqual(['1', '2', '3']);
  });

  it('given exactly one page, then every move is disabled', async () => {
    const { numbers, disabled } = await renderBar(0, 10);
    expect(numbers()).toEqual(['1']);
    for (const name of ['First', 'Prev', 'Next', 'Last']) expect(disabled(name), name).toBe(true);
  });

  it('given no transactions, then there is no pagination at all', async () => {
    const { container } = await renderBar(0, 0);
    expect(container.querySelector('nav')).toBeNull();
  });

  it('given Spanish, then the labels are Spanish', async () => {
    const { container } = await renderBar(1, 30, 10, 'es');
    for (const name of ['Primera', 'Anterior', 'Siguiente', 'Última', 'Página 2'])
      expect(() => byRole(container, 'button', name)).not.toThrow();
    expect(container.querySelector('nav')?.getAttribute('aria-label')).toBe('Páginas de transacciones');
  });

  it('given a negative total (a broken answer), then it refuses to draw rather than guess', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(renderBar(0, -1)).rejects.toThrow(RangeError);
    consoleError.mockRestore();
    rendered = undefined;
  });
});
