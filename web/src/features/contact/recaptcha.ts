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
/** The global Google's script calls once it has loaded (`onload=` in its URL). */
const CALLBACK = 'quernRecaptchaLoaded';

declare global {
  /** Set by Google's script; `render` is missing until the explicit-render API is ready. */
  var grecaptcha: (Omit<Recaptcha, 'render'> & { render?: Recaptcha['render'] }) | undefined;
  var quernRecaptchaLoaded: (() => void) | undefined;
}

/** The widget's API once it can render. */
const loaded = (): Recaptcha | undefined => {
  const api = globalThis.grecaptcha;
  const render = api?.render;
  return api && typeof render === 'function' ? { render: render.bind(api), reset: api.reset.bind(api) } : undefined;
};

/** Whether this document was loaded at this path (its CSP is the contact page's). */
export function documentLoadedHere(): boolean {
  const [navigation] = performance.getEntriesByType?.('navigation') ?? [];
  if (!navigation) return true;
  return new URL(navigation.name).pathname === window.location.pathname;
}

export function loadRecaptcha(language: string): Promise<Recaptcha> {
  const ready = loaded();
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    globalThis[CALLBACK] = () => {
      const api = loaded();
      if (api) resolve(api);
      else reject(new Error('reCAPTCHA did not load'));
    };
    if (document.getElementById(SCRIPT_ID)) return;
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.src = `https://www.google.com/recaptcha/api.js?render=explicit&onload=${CALLBACK}&hl=${encodeURIComponent(language)}`;
    script.async = true;
    script.onerror = () => reject(new Error('reCAPTCHA did not load'));
    document.head.append(script);
  });
}
