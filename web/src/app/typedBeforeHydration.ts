/**
 * What a visitor typed into a prerendered page before React took it over (ADR 023). React
 * hydrates a field with its state (empty), so without this a fast visitor's typing would be lost.
 * main.tsx calls recordTypingBeforeHydration as soon as the app's script runs: it notes what was
 * typed before (the fields' values against their prerendered defaults) and follows input events
 * until hydration. Each field, when it hydrates, takes what was typed into its own element (the
 * same DOM node) and adopts it as its state.
 */
const typed = new WeakMap<Element, string | boolean>();

const isCheckbox = (input: HTMLInputElement) => input.type === 'checkbox' || input.type === 'radio';

export function recordTypingBeforeHydration(root: HTMLElement): void {
  for (const input of root.querySelectorAll('input')) {
    if (isCheckbox(input) ? input.checked !== input.defaultChecked : input.value !== input.defaultValue)
      typed.set(input, isCheckbox(input) ? input.checked : input.value);
  }
  const record = (event: Event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement) typed.set(target, isCheckbox(target) ? target.checked : target.value);
  };
  root.addEventListener('input', record, true);
  root.addEventListener('change', record, true);
}

/** What was typed into `element` before it hydrated, once; undefined when nothing was. */
export function takeTypedBeforeHydration(element: Element | null): string | boolean | undefined {
  if (!element) return undefined;
  const value = typed.get(element);
  typed.delete(element);
  return value;
}
