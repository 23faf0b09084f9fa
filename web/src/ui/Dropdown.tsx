/**
 * A disclosure dropdown for navigation: a button that shows a list of links or actions. It closes
 * on Escape (returning focus to the button), on a click outside, when focus leaves it, and after
 * an item is chosen. Items are reached with Tab, as in any list of links.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface DropdownProps {
  /** Visible content of the button. */
  label: ReactNode;
  /** Accessible name of the button when the visible label alone is not enough. */
  ariaLabel?: string;
  className?: string;
  children: ReactNode;
}

export function Dropdown({ label, ariaLabel, className, children }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOnOutsidePointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutsidePointer);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePointer);
  }, [open]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard and focus events bubble up from the focusable button and items inside; the container only listens.
    <div
      ref={containerRef}
      className={`dropdown ${className ?? ''}`}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        buttonRef.current?.focus();
      }}
      onBlur={(event) => {
        // Only a focus move (Tab) closes here; clicks are handled by the pointerdown listener,
        // because Safari does not focus a clicked button and would report a null target.
        const next = event.relatedTarget as Node | null;
        if (next && !containerRef.current?.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="dropdown-button"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={ariaLabel}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
        <span className="dropdown-caret" aria-hidden="true" />
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the clicks come from the links and buttons inside, which Enter and Space also click. */}
      <ul id={listId} className="dropdown-list" hidden={!open} onClick={() => setOpen(false)}>
        {children}
      </ul>
    </div>
  );
}
