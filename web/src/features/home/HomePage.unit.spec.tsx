// Proves the home page: the logo is the one h1 and is named Quern, and only visitors (once the
// session check has answered) see 'Welcome!' with Register and Sign in.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthState } from '../auth/authState.js';
import { headingOutline, render, visitor, type Rendered } from '../../../test/renderForTest.js';
import HomePage from './HomePage.js';

let page: Rendered | undefined;
afterEach(() => page?.unmount());

const signedIn: AuthState = { loading: false, isAuthenticated: true, id: 'u1', email: 'ana@example.com' };
const checking: AuthState = { loading: true, isAuthenticated: false, id: null, email: null };

const links = (container: HTMLElement) => Array.from(container.querySelectorAll('a'), (a) => [a.textContent, a.getAttribute('href')]);

describe('home page', () => {
  it('given a visitor, when the page renders, then the logo is the h1 and Welcome! offers Register and Sign in', async () => {
    page = await render(<HomePage />, { auth: visitor });

    const logo = page.container.querySelector('h1 svg[role="img"]');
    expect(logo?.getAttribute('aria-label')).toBe('Quern');
    expect(headingOutline(page.container)).toEqual(['h1 Quern', 'h2 Welcome!']);
    expect(links(page.container)).toEqual([
      ['Register', '/register'],
      ['Sign in', '/login'],
    ]);
  });

  it('given a visitor reading Spanish, when the page renders, then the greeting and buttons are in Spanish', async () => {
    page = await render(<HomePage />, { auth: visitor, language: 'es' });

    expect(page.container.querySelector('h2')?.textContent).toBe('¡Bienvenido!');
    expect(links(page.container)).toEqual([
      ['Registrarse', '/register'],
      ['Iniciar sesión', '/login'],
    ]);
  });

  it('given a session still being checked, when the page renders, then the greeting is there, marked pending (hidden for a browser that was signed in)', async () => {
    page = await render(<HomePage />, { auth: checking });

    expect(headingOutline(page.container)).toEqual(['h1 Quern', 'h2 Welcome!']);
    expect(page.container.querySelector('section.welcome')?.classList.contains('welcome--pending')).toBe(true);
  });

  it.each([['a signed-in user', signedIn]])(
    'given %s, when the page renders, then there is no greeting and no Register or Sign in',
    async (_, auth) => {
      page = await render(<HomePage />, { auth });

      expect(headingOutline(page.container)).toEqual(['h1 Quern']);
      expect(page.container.querySelectorAll('a')).toHaveLength(0);
      expect(page.container.querySelectorAll('li.slogans__item')).toHaveLength(6);
    },
  );
});
