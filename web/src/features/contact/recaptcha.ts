/**
 * Google's reCAPTCHA widget, when the server is configured for it (ADR 039): its script loaded
 * once, explicitly rendered into the form. The page's CSP admits Google's sources only on
 * /contact and /support, and a policy belongs to the document: reached by navigation inside the
 * app, the page is loaded again as a document of its own before the widget is asked for.
 */
export interface Recaptcha {
  render(container: HTMLElement, options: Record<string, unknown>): number;
  reset(widgetId?: number): void;
}

const SCRIPT_ID = 'quern-recaptcha-script';

const loaded = () => (globalThis as unknown as { grecaptcha?: Recaptcha & { render?: unknown } }).grecaptcha;

/** Whether this document was loaded at this path (its CSP is the contact page's). */
export function documentLoadedHere(): boolean {
  const [navigation] = performance.getEntriesByType?.('navigation') ?? [];
  if (!navigation) return true;
  return new URL(navigation.name).pathname === window.location.pathname;
}

export function loadRecaptcha(language: string): Promise<Recaptcha> {
  const ready = loaded();
  if (ready && typeof ready.render === 'function') return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    const callback = `quernRecaptchaLoaded`;
    (globalThis as unknown as Record<string, () => void>)[callback] = () => {
      const api = loaded();
      if (api) resolve(api);
      else reject(new Error('reCAPTCHA did not load'));
    };
    if (document.getElementById(SCRIPT_ID)) return;
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.src = `https://www.google.com/recaptcha/api.js?render=explicit&onload=${callback}&hl=${encodeURIComponent(language)}`;
    script.async = true;
    script.onerror = () => reject(new Error('reCAPTCHA did not load'));
    document.head.append(script);
  });
}
