// Proves the slogans: all six are listed in both languages, staggered one 4.3 s slot apart, can be
// paused, and do not animate when the user prefers reduced motion (matchMedia mocked).
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import { Slogans } from './Slogans.js';

let page: Rendered | undefined;
afterEach(() => {
  page?.unmount();
  vi.unstubAllGlobals();
});

/** A matchMedia whose reduced-motion answer the test controls, with working change events. */
function mockReducedMotion(initially: boolean) {
  const listeners = new Set<() => void>();
  const state = { matches: initially };
  vi.stubGlobal('matchMedia', (query: string) => ({
    media: query,
    get matches() {
      return query === '(prefers-reduced-motion: reduce)' && state.matches;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return {
    change(next: boolean) {
      state.matches = next;
      act(() => {
        for (const listener of listeners) listener();
      });
    },
  };
}

const list = () => page!.container.querySelector('ul.slogans')!;
const items = () => Array.from(page!.container.querySelectorAll<HTMLLIElement>('li.slogans__item'));
const toggle = () => page!.container.querySelector('button');

describe.each<[TestLanguage, string[]]>([
  [
    'en',
    [
      'Effortless Transactions',
      'Powered By the millix network',
      'Versatile Payment Options',
      'Security',
      'Streamlined Integration',
      'Currency Conversion (Coming Soon)',
    ],
  ],
  [
    'es',
    [
      'Transacciones sin esfuerzo',
      'Impulsado por la red millix',
      'Opciones de pago versátiles',
      'Seguridad',
      'Integración simplificada',
      'Conversión de divisas (próximamente)',
    ],
  ],
])('slogans in %s', (language, expected) => {
  it('given motion is allowed, when rendered, then all six are listed in order', async () => {
    mockReducedMotion(false);
    page = await render(<Slogans />, { language });

    expect(items().map((item) => item.textContent)).toEqual(expected);
    expect(list().getAttribute('aria-label')).toBeTruthy();
  });
});

describe('slogan animation', () => {
  it('given motion is allowed, when rendered, then each slogan starts one 4.3 s slot after the previous one', async () => {
    mockReducedMotion(false);
    page = await render(<Slogans />);

    expect(list().classList).toContain('slogans--animated');
    expect(items().map((item) => item.style.animationDelay)).toEqual(['0ms', '4300ms', '8600ms', '12900ms', '17200ms', '21500ms']);
  });

  it('given the loop runs, when the user presses Pause and then Play, then the loop stops and resumes', async () => {
    mockReducedMotion(false);
    page = await render(<Slogans />);

    expect(toggle()?.textContent).toBe('Pause slogans');
    act(() => toggle()!.click());
    expect(list().classList).toContain('slogans--paused');
    expect(toggle()?.textContent).toBe('Play slogans');
    act(() => toggle()!.click());
    expect(list().classList).not.toContain('slogans--paused');
  });

  it('given the user prefers reduced motion, when rendered, then all six show statically with no animation and no pause button', async () => {
    mockReducedMotion(true);
    page = await render(<Slogans />);

    expect(list().classList).toContain('slogans--static');
    expect(list().classList).not.toContain('slogans--animated');
    expect(items()).toHaveLength(6);
    expect(items().every((item) => item.getAttribute('style') === null)).toBe(true);
    expect(toggle()).toBeNull();
  });

  it('given the loop runs, when the user turns on reduced motion, then it stops at once', async () => {
    const media = mockReducedMotion(false);
    page = await render(<Slogans />);
    expect(list().classList).toContain('slogans--animated');

    media.change(true);

    expect(list().classList).toContain('slogans--static');
    expect(toggle()).toBeNull();
  });

  it('given a browser without matchMedia, when rendered, then the slogans still render and animate', async () => {
    vi.stubGlobal('matchMedia', undefined);
    page = await render(<Slogans />);

    expect(items()).toHaveLength(6);
    expect(list().classList).toContain('slogans--animated');
  });
});
