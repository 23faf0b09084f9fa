/**
 * How the plan and subscription screens write prices, dates and the server's refusals: MLX with
 * the dashboard's thousands separators, dates the dashboard's way (en-GB, 12-hour on desktop),
 * and an error as its translated message with the server's own text as fallback.
 */
import { useTranslation } from 'react-i18next';
import type { AppErrorView } from '../../app/appError.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { displayParams, formatMlxWire } from '../../ui/displayFormat.js';

/** A price (a JSON integer, or decimal text) with thousands separators. */
export function usePriceText(): (price: number | string) => string {
  const language = useLanguage();
  return (price) => {
    const wire = String(price);
    return formatMlxWire(wire, language) ?? wire;
  };
}

/** A server refusal as the text the user reads, in the language on screen. */
export function useErrorText(): (view: AppErrorView) => string {
  const { t } = useTranslation('errors');
  const language = useLanguage();
  return (view) => {
    return t(view.messageKey, { ...displayParams(view.params, language), defaultValue: view.message || t('internal') });
  };
}
