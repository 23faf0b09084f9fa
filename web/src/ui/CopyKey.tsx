/**
 * Copies the new key, which is shown this once. The result is announced in a polite live region
 * and on the button, as the wallet's address copy does (same copy routine, its fallback included).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COPIED_FEEDBACK_MS, copyText } from './clipboard.js';
import './copy.css';

/**
 * `namespace` and `prefix`: whose `copy`/`copied` texts to use (the webhook secret and the plans'
 * public link reuse this button).
 */
export function CopyKey({
  apiKey,
  namespace = 'direct',
  prefix = '',
}: {
  apiKey: string;
  namespace?: 'direct' | 'webhooks' | 'plans';
  prefix?: string;
}) {
  const { t: translate } = useTranslation(namespace);
  const t = (key: 'copy' | 'copied') => translate(`${prefix}${key}`);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <>
      <button type="button" className="button copy-button" onClick={() => void copyText(apiKey).then(setCopied)}>
        {copied ? t('copied') : t('copy')}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? t('copied') : ''}
      </span>
    </>
  );
}
