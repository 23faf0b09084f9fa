/**
 * DOM helpers for component tests in jsdom (rendering: renderForTest.tsx beside this file): type
 * into inputs the way React notices, click, submit, find by label or name, and wait for
 * asynchronous UI. No extra test library is needed.
 */
import { act } from 'react';

/** Sets an input's value through the native setter, so React's onChange fires. */
export function typeInto(input: HTMLInputElement, value: string): void {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  act(() => {
    setValue?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function click(element: Element): void {
  act(() => (element as HTMLElement).click());
}

export function pressKey(element: Element, key: string): void {
  act(() => {
    element.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });
}

export async function submit(form: HTMLFormElement): Promise<void> {
  await act(async () => form.requestSubmit());
}

/** Retries `check` until it stops throwing, flushing React work between tries (at most 2 s). */
export async function waitFor<T>(check: () => T, timeoutMs = 2_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    }
  }
}

export function byLabel(container: HTMLElement, label: string): HTMLInputElement {
  const labelElement = [...container.querySelectorAll('label')].find((element) => element.textContent === label);
  const input = labelElement?.htmlFor ? container.querySelector<HTMLInputElement>(`#${labelElement.htmlFor}`) : null;
  if (!input) throw new Error(`No input labelled "${label}"`);
  return input;
}

/** The button or link whose accessible name (aria-label, else its text) is exactly `name`. */
export function byRole(container: HTMLElement, role: 'button' | 'link', name: string): HTMLElement {
  const selector = role === 'button' ? 'button' : 'a[href]';
  const element = [...container.querySelectorAll<HTMLElement>(selector)].find(
    (candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent ?? '').trim() === name,
  );
  if (!element) throw new Error(`No ${role} named "${name}"`);
  return element;
}

export const textOf = (container: HTMLElement): string => container.textContent ?? '';
