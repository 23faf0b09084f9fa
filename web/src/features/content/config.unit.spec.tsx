// Proves the build-time settings: configured mailboxes and plugin versions are used as given, and
// unset or blank ones fall back to the .example mailboxes and to "not yet published".
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const loadConfig = async () => import('./config.js');

describe('content config', () => {
  it('given nothing is configured, when read, then the .example mailboxes apply and no version is invented', async () => {
    vi.stubEnv('VITE_SUPPORT_EMAIL', '');
    vi.stubEnv('VITE_PLUGIN_TESTED_PHP', '   ');

    const { contactEmails, pluginTestedVersions } = await loadConfig();

    expect(contactEmails).toEqual({ supportEmail: 'support@quern.example', salesEmail: 'sales@quern.example' });
    expect(pluginTestedVersions.map((v) => v.version)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('given mailboxes and versions at build time, when read, then they are used trimmed', async () => {
    vi.stubEnv('VITE_SUPPORT_EMAIL', ' help@shop.test ');
    vi.stubEnv('VITE_SALES_EMAIL', 'deals@shop.test');
    vi.stubEnv('VITE_PLUGIN_TESTED_PHP', '8.2');
    vi.stubEnv('VITE_PLUGIN_TESTED_WORDPRESS', '6.4');
    vi.stubEnv('VITE_PLUGIN_TESTED_WOOCOMMERCE', '8.5');
    vi.stubEnv('VITE_PLUGIN_TESTED_DOKAN', '3.9');

    const { contactEmails, pluginTestedVersions } = await loadConfig();

    expect(contactEmails).toEqual({ supportEmail: 'help@shop.test', salesEmail: 'deals@shop.test' });
    expect(pluginTestedVersions).toEqual([
      { software: 'PHP', version: '8.2' },
      { software: 'WordPress', version: '6.4' },
      { software: 'WooCommerce', version: '8.5' },
      { software: 'Dokan', version: '3.9' },
    ]);
  });

  it('given a configured support mailbox, when a page renders, then its links use that address', async () => {
    vi.stubEnv('VITE_SUPPORT_EMAIL', 'help@shop.test');
    const { render } = await import('../../../test/renderForTest.js');
    const { default: PrivacyPolicyPage } = await import('./PrivacyPolicyPage.js');

    const page = await render(<PrivacyPolicyPage />);

    expect(page.container.querySelector('a[href="mailto:help@shop.test"]')).not.toBeNull();
    expect(page.container.textContent).not.toContain('support@quern.example');
    page.unmount();
  });
});
