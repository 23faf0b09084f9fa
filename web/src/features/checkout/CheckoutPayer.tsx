/**
 * Who pays, before Pay now: the signed-in shopper's username (e-mail while it loads) and the MLX
 * they can spend (the wallet's stable balance, the figure the server checks a checkout against);
 * when it is short of the order, the MLX still needed, the same figure as the spec's 4001 message
 * ('An additional N (mlx) is needed'), so the shopper learns it before the click.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import type { Language } from '../../i18n/languages.js';
import { useAuth } from '../auth/AuthProvider.js';
import { formatAmountDigits } from '../../ui/amountInput.js';
import { formatMlxWire } from '../../ui/displayFormat.js';

/** The MLX the order needs beyond the balance, as digits; null when the balance covers it or a figure is unreadable. */
export function shortfallMlx(priceMlx: string, balanceMlx: string): string | null {
  if (!/^[0-9]+$/.test(priceMlx) || !/^[0-9]+$/.test(balanceMlx)) return null;
  const missing = BigInt(priceMlx) - BigInt(balanceMlx);
  return missing > 0n ? missing.toString() : null;
}

export function CheckoutPayer({ priceMlx, language, showShortfall }: { priceMlx: string; language: Language; showShortfall: boolean }) {
  const { t } = useTranslation('checkout');
  const trpc = useTRPC();
  const { state } = useAuth();
  const user = useQuery({ ...trpc.identity.user.queryOptions({ id: state.id ?? '' }), enabled: state.id !== null });
  const balance = useQuery(trpc.wallet.balance.queryOptions());
  const payer = user.data ? `@${user.data.username}` : (state.email ?? '');
  const shown = balance.data ? formatMlxWire(balance.data.stable, language) : null;
  const missing = balance.data && showShortfall ? shortfallMlx(priceMlx, balance.data.stable) : null;
  return (
    <div className="checkout-payer" data-testid="checkout-payer">
      <p>{t('payingAs', { payer })}</p>
      <p>{shown !== null ? t('balance', { balance: shown }) : balance.isError ? t('balanceUnavailable') : t('balanceLoading')}</p>
      {missing ? (
        <p className="form-alert form-alert-error" role="alert" data-testid="checkout-shortfall">
          {t('shortfall', { debit: formatAmountDigits(missing, language) })}
        </p>
      ) : null}
    </div>
  );
}
