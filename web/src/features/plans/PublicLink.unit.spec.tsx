// Proves the public link on the plan pages: the list and the owner's plan page show
// <origin>/user/<own username>; Copy puts it on the clipboard and announces 'Copied'; another
// user's plan page does not offer the owner's link; Spanish.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byRole, click, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import type { FakeCall, FakeProcedures } from '../../../test/walletTestKit.js';
import { OTHER_ID, planFixture, renderPlans } from '../../../test/plansTestKit.js';

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => {
  rendered?.unmount();
  vi.unstubAllGlobals();
});

const procedures: FakeProcedures = {
  'plans.mine': () => ({ data: { content: [planFixture()] } }),
  'plans.get': () => ({ data: { content: planFixture() } }),
  'identity.user': () => ({ data: { username: 'bob_shop' } }),
};
const expectedUrl = `${window.location.origin}/user/bob_shop`;
const linkOf = (container: HTMLElement) => container.querySelector('[data-testid="public-link"]');

describe('PublicLink', () => {
  it('given the plans list, then it shows the public link, and Copy copies it and announces Copied', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    rendered = await renderPlans(procedures, { path: '/subscription-plans/all' });
    const { container } = rendered;
    await waitFor(() => expect(linkOf(container)?.textContent).toBe(expectedUrl));
    expect(linkOf(container)?.getAttribute('href')).toBe(expectedUrl);
    expect(container.querySelector('.plans-share h2')?.textContent).toBe('Your public page');
    click(byRole(container, 'button', 'Copy link'));
    await waitFor(() => expect(container.querySelector('.plans-share [role="status"]')?.textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith(expectedUrl);
  });

  it("given the owner's plan page, then it shows the public link", async () => {
    rendered = await renderPlans(procedures, { path: '/subscription-plans/plan_1' });
    await waitFor(() => expect(linkOf(rendered?.container as HTMLElement)?.textContent).toBe(expectedUrl));
  });

  it("given another user's plan page, then no public link is offered", async () => {
    rendered = await renderPlans(procedures, { path: '/subscription-plans/plan_1', userId: OTHER_ID });
    const { container } = rendered;
    await waitFor(() => byRole(container, 'button', 'Subscribe'));
    expect(linkOf(container)).toBeNull();
  });

  it('given Spanish, then the section and its button speak Spanish', async () => {
    rendered = await renderPlans(procedures, { path: '/subscription-plans/all', language: 'es' });
    const { container } = rendered;
    await waitFor(() => expect(linkOf(container)?.textContent).toBe(expectedUrl));
    expect(container.querySelector('.plans-share h2')?.textContent).toBe('Su página pública');
    expect(byRole(container, 'button', 'Copiar enlace')).toBeTruthy();
  });
});
