/**
 * The dashboard's hero block: Current Balance, the Current (stable) and Pending (incoming minus
 * outgoing, not yet settled: ADR 062) amounts in MLX with their USD equivalents when a rate exists, the username, and the millix
 * address with a copy button ('Invalid address' when the address call failed), and, while some
 * MLX bought with PayPal is held (ADR 047), how much and until when.
 */
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { CopyAddress } from './CopyAddress.js';
import { ReceiveButton } from './ReceiveDialog.js';
import { pendingFigureOf } from './pendingFigure.js';
import { formatMlxWire, formatStyledDate, formatUsdEquivalent } from '../../ui/displayFormat.js';

interface BalanceHeroProps {
  /** Undefined while unknown (the call failed: spec section 8 shows no message, only dashes). */
  balance: { stable: string; unstable: string; pending_incoming?: string; pending_outgoing?: string } | undefined;
  rate: string | null | undefined;
  username: string | undefined;
  /** The address, or 'invalid' when its call failed. */
  address: string | 'invalid';
  language: Language;
  /** Bought MLX not yet free to send or pay out; nothing shows while unknown or none. */
  hold?: { heldMlx: string; holdUntil: string | null } | undefined;
}

function PurchaseHoldNote({ hold, language }: { hold: BalanceHeroProps['hold']; language: Language }) {
  const { t } = useTranslation('wallet');
  if (!hold || hold.heldMlx === '0' || hold.holdUntil === null) return null;
  const amount = formatMlxWire(hold.heldMlx, language);
  if (amount === null) return null;
  return (
    <p className="account-hold" role="note">
      {t('dashboard.purchaseHold', { amount, until: formatStyledDate(hold.holdUntil, 'long') })}
    </p>
  );
}

function BalanceFigure({
  label,
  wire,
  rate,
  language,
  kind,
  sign = '',
  note,
}: {
  label: string;
  wire: string | undefined;
  rate: string | null | undefined;
  language: Language;
  kind: string;
  /** Pending's sign (ADR 062); the formatters take the magnitude. */
  sign?: string;
  note?: string | undefined;
}) {
  const { t } = useTranslation('wallet');
  const formatted = wire === undefined ? null : formatMlxWire(wire, language);
  const amount = formatted === null ? null : `${sign}${formatted}`;
  const usdMagnitude = wire === undefined ? null : formatUsdEquivalent(wire, rate, language);
  const usd = usdMagnitude === null ? null : `${sign}${usdMagnitude}`;
  return (
    <div className={`balance-figure balance-${kind}`}>
      <dt>{label}</dt>
      <dd>
        <span className="balance-mlx">{amount === null ? t('dashboard.unknownAmount') : t('units.amountMlx', { amount })}</span>
        {usd === null ? null : <span className="balance-usd">{t('dashboard.usdEquivalent', { amount: usd })}</span>}
        {note ? <span className="balance-note">{note}</span> : null}
      </dd>
    </div>
  );
}

export function BalanceHero({ balance, rate, username, address, language, hold }: BalanceHeroProps) {
  const { t } = useTranslation('wallet');
  const pending = balance === undefined ? null : pendingFigureOf(balance);
  return (
    <section className="account-hero" aria-labelledby="balance-title">
      <div className="account-hero-head">
        <h2 id="balance-title">{t('dashboard.currentBalance')}</h2>
        {username ? (
          <p className="account-user">
            <span className="account-user-label">{t('dashboard.signedInAs')}</span> <strong className="account-username">{username}</strong>
          </p>
        ) : null}
      </div>
      <dl className="balance-figures">
        <BalanceFigure label={t('dashboard.current')} wire={balance?.stable} rate={rate} language={language} kind="current" />
        <BalanceFigure
          label={t('dashboard.pending')}
          wire={pending?.magnitude}
          sign={pending?.sign}
          note={pending !== null && pending.magnitude !== '0' ? t('history.pendingNote') : undefined}
          rate={rate}
          language={language}
          kind="pending"
        />
      </dl>
      <PurchaseHoldNote hold={hold} language={language} />
      <div className="account-address">
        <span className="account-address-label">{t('dashboard.millixAddress')}</span>
        {address === 'invalid' ? (
          <span className="account-address-invalid">{t('dashboard.invalidAddress')}</span>
        ) : (
          <>
            <span className="account-address-value">{address}</span>
            <CopyAddress address={address} />
            <ReceiveButton />
          </>
        )}
      </div>
    </section>
  );
}
