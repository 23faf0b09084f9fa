/**
 * The one Copy button for code snippets, URLs and recovery codes (issue 25). Its visible word is
 * 'Copy' (then 'Copied' for a moment); its accessible name adds what it copies ('Copy: Order
 * request'), so a page with several of them reads unambiguously. The result is announced in a
 * polite live region present from the start; a failure is also written out beside the button.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COPIED_FEEDBACK_MS, copyText } from './clipboard.js';
import './copy.css';

type CopyResult = 'idle' | 'copied' | 'failed';

export function CopyButton({ text, what, testId }: { text: string; what: string; testId?: string }) {
  const { t } = useTranslation('common');
  const [result, setResult] = useState<CopyResult>('idle');
  useEffect(() => {
    if (result !== 'copied') return;
    const timer = setTimeout(() => setResult('idle'), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [result]);
  const word = result === 'copied' ? t('copy.copied') : t('copy.button');
  return (
    <span className="copy-control">
      <button
        type="button"
        className="button copy-snippet-button"
        aria-label={`${word}: ${what}`}
        data-testid={testId}
        onClick={() => void copyText(text).then((copied) => setResult(copied ? 'copied' : 'failed'))}
      >
        {word}
      </button>
      <span className={result === 'failed' ? 'copy-control-failed' : 'visually-hidden'} role="status">
        {result === 'copied' ? t('copy.copiedWhat', { what }) : result === 'failed' ? t('copy.failed') : ''}
      </span>
    </span>
  );
}
