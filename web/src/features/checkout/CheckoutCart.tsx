/** The order as a table (item, price, qty) and its total with the currency (spec, Checkout). */
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { formatAmountDigits } from '../../ui/amountInput.js';
import type { CheckoutLine } from './checkoutQuery.js';

export function CheckoutCart({ lines, price, language }: { lines: CheckoutLine[]; price: string; language: Language }) {
  const { t } = useTranslation('checkout');
  const mlx = (digits: string) => t('amount', { amount: formatAmountDigits(digits, language), currency: 'MLX' });
  return (
    <table className="checkout-cart">
      <caption>{t('cartCaption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('item')}</th>
          <th scope="col" className="checkout-number">
            {t('price')}
          </th>
          <th scope="col" className="checkout-number">
            {t('quantity')}
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => (
          // Lines may repeat a name; their place in the cart is what tells them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the cart never reorders
          <tr key={index}>
            <td>{line.name}</td>
            <td className="checkout-number">{mlx(line.price)}</td>
            <td className="checkout-number">{formatAmountDigits(line.quantity, language)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2}>
            {t('total')}
          </th>
          <td className="checkout-number checkout-total">{mlx(price)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
