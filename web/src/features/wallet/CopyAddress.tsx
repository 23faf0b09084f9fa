/**
 * Copies the wallet address. The result is announced through a polite live region ('Copied'),
 * and the button says so for a moment too, so both sighted and screen-reader users know it
 * worked. The copy routine (with its fallback for plain HTTP) is ui/clipboard.ts.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { COPIED_FEEDBACK_MS, copyText } from '../../ui/clipboard.js';
import '../../ui/copy.css';

type CopyResult = 'idle' | 'copied' | 'failed';

export function CopyAddress({ address }: { address: string }) {
  const { t } = useTranslation('wallet');
  const [result, setResult] = useState<CopyResult>('idle');
  useEffect(() => {
    if (result !== 'copied') return;
    const timer = setTimeout(() => setResult('idle'), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [result]);

  return (
    <>
      <button
        type="button"
        className="button copy-button"
        onClick={() => {
          void copyText(address).then((copied) => setResult(copied ? 'copied' : 'failed'));
        }}
      >
        <svg className="copy-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <rect x="5" y="5" width="9" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          />
        </svg>
        {result === 'copied' ? t('dashboard.copied') : t('dashboard.copyAddress')}
      </button>
      {/* Present before anything is copied, so screen readers are already watching it. The
          success is visible on the button; only a failure needs visible words here. */}
      <span className={result === 'failed' ? 'copy-status copy-status-failed' : 'copy-status visually-hidden'} role="status">
        {result === 'copied' ? t('dashboard.copied') : result === 'failed' ? t('dashboard.copyFailed') : ''}
      </span>
    </>
  );
}
