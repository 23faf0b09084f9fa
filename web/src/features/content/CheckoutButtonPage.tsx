import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { LogoMark } from '../home/Logo.js';
import { postCheckoutButtonClick } from './buttonMessage.js';
import './checkoutButton.css';

/**
 * Lets the host page's background show through the iframe, while mounted only. The shell's
 * themes paint <html> and <body>, and inline styles beat any class (dark mode included); the
 * previous values come back on unmount so a client-side navigation away leaves no trace.
 */
function useTransparentDocument(): void {
  useEffect(() => {
    const targets = [document.documentElement, document.body];
    const previous = targets.map((element) => element.style.background);
    for (const element of targets) element.style.background = 'transparent';
    return () => {
      targets.forEach((element, index) => {
        element.style.background = previous[index] ?? '';
      });
    };
  }, []);
}

/**
 * The embeddable Quern button (/checkout-buttons): a merchant's site shows it in an iframe. It
 * renders outside the app shell, with no navigation or footer, so its <main> is its own. A click
 * posts the spec's click message to the embedding page, whose script (/sdk/checkout.js) opens the
 * checkout popup: a popup opened from inside the frame would lose the shop's cart and callback.
 * There is no h1: a heading would be noise inside the host page, whose own outline the button joins.
 */
export default function CheckoutButtonPage() {
  const { t } = useTranslation('checkoutButton');
  useDocumentTitle(t('pageTitle'));
  useTransparentDocument();
  return (
    <main className="checkout-button-page">
      <button type="button" className="checkout-button" onClick={() => postCheckoutButtonClick()}>
        <LogoMark className="checkout-button__mark" />
        <span>{t('label')}</span>
      </button>
    </main>
  );
}
