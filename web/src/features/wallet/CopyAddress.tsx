/**
 * Copies the wallet address. The result is announced through a polite live region ('Copied'),
 * and the button says so for a moment too, so both sighted and screen-reader users know it
 * worked. Where the Clipboard API is missing (pages served over plain HTTP) the older
 * execCommand route is tried before admitting failure.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How long the button shows 'Copied' before offering to copy again. */
export const COPIED_FEEDBACK_MS = 2_000;

type CopyResult = 'idle' | 'copied' | 'failed';

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Permission refused or no focus: the fallback below may still work.
    }
  }
  return copyWithSelection(text);
}

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
