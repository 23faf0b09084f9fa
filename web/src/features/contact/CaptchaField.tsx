/**
 * The captcha of the contact forms: the ALTCHA widget, which fetches a challenge from
 * /api/captcha/challenge, solves it in a worker and hands back the payload the send spends.
 * The widget is loaded only with the page that shows it; `onChange` gets the payload once solved
 * and null whenever it is not (expired, reset, failed).
 */
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface CaptchaHandle {
  /** Back to unsolved: after a send, the spent solution is of no more use. */
  reset(): void;
}

type WidgetElement = HTMLElement & { reset?: () => void };

export const CaptchaField = forwardRef<CaptchaHandle, { onChange(response: string | null): void }>(function CaptchaField(
  { onChange },
  handle,
) {
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
        // No widget (a browser without workers, a test): the form still says 'Verify reCAPTCHA'.
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
