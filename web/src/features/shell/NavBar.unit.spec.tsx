// Proves the navigation bar shows visitors Register and Sign in, shows signed-in users the wallet
// links and a profile dropdown headed by their username, and shows neither while the session
// check runs; and that its dropdowns and dark-mode switch work from the keyboard.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthState } from '../auth/authState.js';
import { byRole, click, pressKey, textOf, waitFor } from '../../../test/dom.js';
import { render, visitor, type Rendered } from '../../../test/renderForTest.js';
import { NavBar } from './NavBar.js';

const signedIn: AuthState = {
  loading: false,
  isAuthenticated: true,
  id: '5b0f6a53-3b8e-4c55-9d38-4a7f0e9c2b11',
  email: 'alice@example.com',
};
const checking: AuthState = { loading: true, isAuthenticated: false, id: null, email: null };

/** The server's answer to identity.user, in tRPC's batch format (no transformer). */
function answerUserQuery(username: string) {
  return vi.fn(async (url: string) => {
    if (!String(url).startsWith('/trpc/identity.user')) return new Response('not found', { status: 404 });
    const user = { username, first_name: 'Alice', last_name: 'Liddell', phone_number: '+15550102030' };
    return new Response(JSON.stringify([{ result: { data: user } }]), { headers: { 'content-type': 'application/json' } });
  });
}

const hrefs = (container: HTMLElement) => [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));

let page: Rendered | undefined;
beforeEach(() => localStorage.clear());
afterEach(() => {
  page?.unmount();
  vi.unstubAllGlobals();
  document.body.classList.remove('dark-mode');
});

describe('NavBar', () => {
  it('given a visitor, then the brand goes home and the links are Register and Sign in', async () => {
    page = await render(<NavBar />, { auth: visitor });
    const { container } = page;
    expect(byRole(container, 'link', 'Quern').getAttribute('href')).toBe('/');
    expect(byRole(container, 'link', 'Register').getAttribute('href')).toBe('/register');
    expect(byRole(container, 'link', 'Sign in').getAttribute('href')).toBe('/login');
    expect(hrefs(container)).not.toContain('/millix/send');
    expect(hrefs(container)).not.toContain('/logout');
  });

  it('given a signed-in user, then the brand goes to /account, the wallet links show and the dropdown is headed by the username', async () => {
    const fetch = answerUserQuery('alice_01');
    vi.stubGlobal('fetch', fetch);
    page = await render(<NavBar />, { auth: signedIn });
    const { container } = page;

    const profileButton = await waitFor(() => byRole(container, 'button', 'Account menu: alice_01'));
    expect(profileButton.textContent).toBe('alice_01');
    expect(byRole(container, 'link', 'Quern').getAttribute('href')).toBe('/account');
    expect(hrefs(container)).toEqual(expect.arrayContaining(['/millix/send', '/millix/buy', '/millix/sell']));
    expect(hrefs(container)).not.toContain('/register');
    expect(String(fetch.mock.calls[0]?.[0])).toContain(encodeURIComponent(signedIn.id ?? ''));

    click(profileButton);
    expect(profileButton.getAttribute('aria-expanded')).toBe('true');
    expect(hrefs(container)).toEqual(expect.arrayContaining(['/profile', '/api-direct', '/support', '/logout']));
    expect(byRole(container, 'link', 'Subscription plans').getAttribute('href')).toBe('/subscription-plans/all');
    expect(byRole(container, 'link', 'Subscriptions').getAttribute('href')).toBe('/subscriptions/all');
    expect(byRole(container, 'link', 'Payments').getAttribute('href')).toBe('/payments');
    expect(byRole(container, 'link', 'Developers').getAttribute('href')).toBe('/developers');
    // A merchant's tools follow API Direct, ahead of Support and Sign out.
    const menuLinks = [...container.querySelectorAll('.profile-menu a')].map((a) => a.getAttribute('href'));
    expect(menuLinks).toEqual([
      '/profile',
      '/api-direct',
      '/payments',
      '/developers',
      '/subscription-plans/all',
      '/subscriptions/all',
      '/support',
      '/logout',
    ]);
  });

  it('given the session check has not answered, then the visitor links are there, marked pending (hidden for a browser that was signed in)', async () => {
    page = await render(<NavBar />, { auth: checking });
    expect(hrefs(page.container)).toEqual(['/', '/register', '/login']);
    expect(page.container.querySelector('.nav-links')?.classList.contains('nav-links-pending')).toBe(true);
  });

  it('given an open dropdown, when Escape is pressed, then it closes and focus returns to its button', async () => {
    page = await render(<NavBar />, { auth: visitor });
    const languageButton = byRole(page.container, 'button', 'Language: English');
    click(languageButton);
    const spanish = byRole(page.container, 'button', 'Spanish');
    spanish.focus();
    pressKey(spanish, 'Escape');
    expect(languageButton.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(languageButton);
  });

  it('given English, when Spanish is chosen, then the bar speaks Spanish and marks Spanish as current', async () => {
    page = await render(<NavBar />, { auth: visitor });
    click(byRole(page.container, 'button', 'Language: English'));
    expect(byRole(page.container, 'button', 'English').getAttribute('aria-current')).toBe('true');
    click(byRole(page.container, 'button', 'Spanish'));
    await waitFor(() => expect(textOf(page!.container)).toContain('Iniciar sesión'));
    click(byRole(page.container, 'button', 'Idioma: Español'));
    expect(byRole(page.container, 'button', 'Español').getAttribute('aria-current')).toBe('true');
    expect(byRole(page.container, 'button', 'Inglés').getAttribute('aria-current')).toBeNull();
  });

  it('given light mode, when the dark-mode switch is pressed, then the body gets the class and "1" is stored', async () => {
    page = await render(<NavBar />, { auth: visitor });
    const switchButton = page.container.querySelector('[role="switch"]');
    if (!switchButton) throw new Error('no dark-mode switch');
    expect(switchButton.getAttribute('aria-checked')).toBe('false');
    click(switchButton);
    expect(switchButton.getAttribute('aria-checked')).toBe('true');
    expect(document.body.classList.contains('dark-mode')).toBe(true);
    expect(localStorage.getItem('quern.darkMode')).toBe('1');
    click(switchButton);
    expect(document.body.classList.contains('dark-mode')).toBe(false);
    expect(localStorage.getItem('quern.darkMode')).toBe('0');
  });
});
