/**
 * The transactions' pagination (spec, Dashboard): First, Prev, a window of 5 numbered buttons
 * around the current page, Next, Last, laid out by core's `paginate`. Pages are 0-based as the
 * API counts them; the buttons show 1-based numbers.
 *
 * Disabled buttons use aria-disabled rather than the disabled attribute: a button that becomes
 * disabled under the keyboard (Next on reaching the last page, a number once it is current)
 * keeps focus instead of dropping it to the top of the document.
 */
import { paginate } from '@quern/core/wallet';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface PaginationBarProps {
  /** 0-based page on screen. */
  page: number;
  total: number;
  limit: number;
  onPageChange(page: number): void;
}

function PageButton({
  disabled,
  onSelect,
  current = false,
  label,
  children,
}: {
  disabled: boolean;
  onSelect(): void;
  current?: boolean;
  label?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`pagination-button${current ? ' pagination-current' : ''}`}
      aria-disabled={disabled || undefined}
      aria-current={current ? 'page' : undefined}
      aria-label={label}
      onClick={() => {
        if (!disabled) onSelect();
      }}
    >
      {children}
    </button>
  );
}

export function PaginationBar({ page, total, limit, onPageChange }: PaginationBarProps) {
  const { t } = useTranslation('wallet');
  const pagination = paginate({ page, total, limit });
  if (pagination.pageCount === 0) return null;
  const shownPage = Math.min(page, pagination.lastPage) + 1;
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <ul className="pagination-list">
        <li>
          <PageButton disabled={pagination.firstDisabled} onSelect={() => onPageChange(pagination.firstPage)}>
            {t('pagination.first')}
          </PageButton>
        </li>
        <li>
          <PageButton disabled={pagination.prevDisabled} onSelect={() => onPageChange(pagination.prevPage)}>
            {t('pagination.prev')}
          </PageButton>
        </li>
        {pagination.buttons.map((button) => (
          <li key={button.page} className="pagination-number">
            <PageButton
              disabled={button.current}
              current={button.current}
              label={t('pagination.page', { page: button.label })}
              onSelect={() => onPageChange(button.page)}
            >
              {button.label}
            </PageButton>
          </li>
        ))}
        <li>
          <PageButton disabled={pagination.nextDisabled} onSelect={() => onPageChange(pagination.nextPage)}>
            {t('pagination.next')}
          </PageButton>
        </li>
        <li>
          <PageButton disabled={pagination.lastDisabled} onSelect={() => onPageChange(pagination.lastPage)}>
            {t('pagination.last')}
          </PageButton>
        </li>
      </ul>
      <p className="pagination-status" aria-live="polite">
        {t('pagination.status', { page: shownPage, pages: pagination.pageCount })}
      </p>
    </nav>
  );
}
