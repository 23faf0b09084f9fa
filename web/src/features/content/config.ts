/**
 * Build-time settings of the public pages. They come from Vite's `import.meta.env`, so an
 * operator sets them when building the app (VITE_* variables), never in the translation files:
 * one deployment's mailbox or plugin release must not be baked into the shared texts.
 */

/** Reads one VITE_* variable as trimmed text, or undefined when it is unset or blank. */
function readBuildSetting(name: string): string | undefined {
  const value: unknown = import.meta.env[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The mailboxes the static pages name. The defaults use the reserved `.example` domain, so an
 * unconfigured build never sends people to a real stranger's address.
 */
export const contactEmails = {
  supportEmail: readBuildSetting('VITE_SUPPORT_EMAIL') ?? 'support@quern.example',
  salesEmail: readBuildSetting('VITE_SALES_EMAIL') ?? 'sales@quern.example',
} as const;

export interface TestedVersion {
  software: 'PHP' | 'WordPress' | 'WooCommerce' | 'Dokan';
  /** Undefined until the plugin's release publishes it; the page then says so instead of guessing. */
  version: string | undefined;
}

/** The versions the WooCommerce plugin was tested with, as its release published them. */
export const pluginTestedVersions: readonly TestedVersion[] = [
  { software: 'PHP', version: readBuildSetting('VITE_PLUGIN_TESTED_PHP') },
  { software: 'WordPress', version: readBuildSetting('VITE_PLUGIN_TESTED_WORDPRESS') },
  { software: 'WooCommerce', version: readBuildSetting('VITE_PLUGIN_TESTED_WOOCOMMERCE') },
  { software: 'Dokan', version: readBuildSetting('VITE_PLUGIN_TESTED_DOKAN') },
];
