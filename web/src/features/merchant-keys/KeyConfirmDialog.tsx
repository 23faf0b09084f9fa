/**
 * Asks before the API key is replaced or deleted: either one cuts off every integration that uses
 * the current key at once, and both are a single button on the page. Built on the app's modal
 * dialog (Escape and the backdrop cancel); Cancel calls nothing.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal.js';

export type KeyAction = 'generate' | 'delete';

interface KeyConfirmDialogProps {
  /** The action waiting for an answer, or null when the dialog is closed. */
  action: KeyAction | null;
  onConfirm(action: KeyAction): void;
  onCancel(): void;
}

export function KeyConfirmDialog({ action, onConfirm, onCancel }: KeyConfirmDialogProps) {
  const { t } = useTranslation('direct');
  const titleId = useId();
  const textId = useId();
  const replace = action === 'generate';
  return (
    <Modal
      open={action !== null}
      onClose={onCancel}
      labelledBy={titleId}
      describedBy={textId}
      role="alertdialog"
      className="direct-key-confirm"
    >
      <h2 id={titleId}>{replace ? t('confirmReplaceTitle') : t('confirmDeleteTitle')}</h2>
      <p id={textId}>{t('confirmKeyText')}</p>
      <div className="modal-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('confirmCancel')}
        </button>
        <button type="button" className="button button-primary" onClick={() => action && onConfirm(action)}>
          {replace ? t('confirmReplace') : t('confirmDelete')}
        </button>
      </div>
    </Modal>
  );
}
