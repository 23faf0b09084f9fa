/**
 * The captcha of the contact forms: by default the ALTCHA widget, which fetches a challenge from
 * /api/captcha/challenge, solves it in a worker and hands back the payload the send spends; when
 * the server says reCAPTCHA (GET /api/captcha/config, tRPC contact.captchaConfig), Google's widget
 * with the server's site key. Either is loaded only with the page that shows it; `onChange` gets
 * the answer once solved and null whenever it is not (expired, reset, failed).
 */
import { useQuery } from '@tanstack/react-query';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { documentLoadedHere, loadRecaptcha, type Recaptcha } from './recaptcha.js';

export interface CaptchaHandle {
  /** Back to unsolved: after a send, the spent solution is of no more use. */
  reset(): void;
}

type WidgetElement = HTMLElement & { reset?: () => void };

type CaptchaProps = { onChange(response: string | null): void };

/** Google's widget, rendered explicitly into a box of the form. */
const RecaptchaField = forwardRef<CaptchaHandle, CaptchaProps & { siteKey: string }>(function RecaptchaField(
  { onChange, siteKey },
  handle,
) {
  const { i18n } = useTranslation('contact');
  const boxRef = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: Recaptcha; id: number } | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useImperativeHandle(handle, () => ({
    reset() {
      if (widget.current) widget.current.api.reset(widget.current.id);
      onChangeRef.current(null);
    },
  }));

  useEffect(() => {
    // The CSP that admits Google is this page's own: reached inside the app, load it as a document.
    if (!documentLoadedHere()) {
      window.location.reload();
      return;
    }
    let cancelled = false;
    loadRecaptcha(i18n.language)
      .then((api) => {
        const box = boxRef.current;
        if (cancelled || !box || widget.current) return;
        const id = api.render(box, {
          sitekey: siteKey,
          callback: (token: string) => onChangeRef.current(token),
          'expired-callback': () => onChangeRef.current(null),
          'error-callback': () => onChangeRef.current(null),
        });
        widget.current = { api, id };
      })
      .catch(() => {
        // Google unreachable: the form still says 'Verify reCAPTCHA' and sends nothing.
      });
    return () => {
      cancelled = true;
    };
  }, [i18n.language, siteKey]);

  return <div className="field contact-captcha" ref={boxRef} data-testid="recaptcha" />;
});

export const CaptchaField = forwardRef<CaptchaHandle, CaptchaProps>(function CaptchaField(props, handle) {
  const trpc = useTRPC();
  const config = useQuery(trpc.contact.captchaConfig.queryOptions());
  // Nothing until the server says which: ALTCHA would ask for a challenge reCAPTCHA never issues.
  if (config.isPending) return <div className="field contact-captcha" aria-busy="true" />;
  if (config.data?.provider === 'recaptcha') return <RecaptchaField {...props} siteKey={config.data.siteKey} ref={handle} />;
  // ALTCHA, the default, also when the question failed: it needs nothing from elsewhere.
  return <AltchaField {...props} ref={handle} />;
});

const AltchaField = forwardRef<CaptchaHandle, CaptchaProps>(function AltchaField({ onChange }, handle) {
  const { t, i18n } = useTranslation('contact');
  const widgetRef = useRef<WidgetElement>(null);
  const [ready, setReady] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useImperativeHandle(handle, () => ({
    reset() {
      widgetRef.current?.reset?.();
      onChangeRef.current(null);
    },
  }));

  useEffect(() => {
    let cancelled = false;
    import('./loadAltcha.js')
      .then(({ registerAltcha }) => {
        registerAltcha(i18n.language, {
          label: t('captchaLabel'),
          verifying: t('captchaVerifying'),
          verified: t('captchaVerified'),
          error: t('captchaError'),
          expired: t('captchaError'),
        });
        if (!cancelled) setReady(true);
      })
      .catch(() => {
        // No widget (a browser without workers, a test): the form still says 'Verify ALTCHA'.
      });
    return () => {
      cancelled = true;
    };
  }, [i18n.language, t]);

  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail ?? {};
      onChangeRef.current(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    widget.addEventListener('statechange', listener);
    return () => widget.removeEventListener('statechange', listener);
  }, []);

  return (
    <div className="field contact-captcha" data-ready={ready ? 'true' : 'false'}>
      <altcha-widget ref={widgetRef} challenge="/api/captcha/challenge" language={i18n.language} name="captcha" />
    </div>
  );
});
