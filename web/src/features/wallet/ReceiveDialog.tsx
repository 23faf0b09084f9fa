/**
 * Receive (issue 27, ADR 079): the wallet's address as a millix payment URI and its QR code, for
 * anyone with millix to scan or copy, with an optional amount to ask for. The server builds the
 * URI and renders the QR code (wallet.receive) and checks the amount as Send does; the code is
 * shown as an image (a data: URL), never as markup in the page.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { toAppErrorView } from '../../app/appError.js';
import { AmountField } from '../../ui/AmountField.js';
import { CopyButton } from '../../ui/CopyButton.js';
import { Modal } from '../../ui/Modal.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';
import './receive.css';

export function ReceiveButton() {
  const { t } = useTranslation('wallet');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button receive-button" onClick={() => setOpen(true)}>
        {t('receive.open')}
      </button>
      {open ? <ReceiveDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ReceiveDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('wallet');
  const messageText = useMessageText();
  const language = useLanguage();
  const trpc = useTRPC();
  const titleId = useId();
  const hintId = useId();
  const [digits, setDigits] = useState('');
  // The last good answer stays on screen while a new amount is asked for, so the code does not flicker.
  const request = useQuery(trpc.wallet.receive.queryOptions({ amount: digits }, { placeholderData: keepPreviousData, retry: false }));
  const refusal = request.error ? toAppErrorView(request.error) : null;
  const shown = refusal === null ? request.data : undefined;
  return (
    <Modal open onClose={onClose} labelledBy={titleId} describedBy={hintId} className="receive-dialog">
      <div className="modal-body">
        <h2 id={titleId}>{t('receive.title')}</h2>
        <p id={hintId}>{t('receive.hint')}</p>
        <AmountField
          id="receive-amount"
          label={t('receive.amount')}
          hint={t('receive.amountHint')}
          digits={digits}
          onDigitsChange={setDigits}
          language={language}
          errorText={refusal ? messageText({ key: refusal.fields.amount ?? refusal.messageKey, fallback: refusal.message }) : null}
        />
        <div className="receive-code" aria-live="polite" aria-busy={request.isFetching}>
          {shown ? (
            <>
              <img
                className="receive-qr"
                data-testid="receive-qr"
                src={`data:image/svg+xml;utf8,${encodeURIComponent(shown.qr_svg)}`}
                alt={t('receive.qrAlt')}
                width={240}
                height={240}
              />
              <p className="receive-uri">
                <code data-testid="receive-uri">{shown.payment_uri}</code>
              </p>
              <CopyButton text={shown.payment_uri} what={t('receive.uri')} testId="receive-copy" />
            </>
          ) : refusal === null ? (
            <p className="receive-loading">{t('receive.loading')}</p>
          ) : null}
        </div>
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('receive.close')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
