import { useTranslation } from 'react-i18next';
import type { MessageRef } from './formErrors.js';

/** Resolves message keys from any namespace ("errors:...", "identity:...") to text. */
export function useMessageText(): (message: MessageRef | string) => string {
  const { t } = useTranslation(['errors', 'common']);
  return (message) => {
    const ref = typeof message === 'string' ? { key: message } : message;
    const text: string = t(ref.key, { ...ref.params, defaultValue: ref.fallback ?? ref.key });
    return text;
  };
}
