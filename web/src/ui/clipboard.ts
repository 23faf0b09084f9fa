/**
 * Copying text to the clipboard, shared by every Copy button (the wallet address, keys and
 * secrets, code snippets, recovery codes). Where the Clipboard API is missing (pages served over
 * plain HTTP) the older execCommand route is tried before admitting failure.
 */

/** How long a button shows 'Copied' before offering to copy again. */
export const COPIED_FEEDBACK_MS = 2_000;

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

export async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Permission refused or no focus: the fallback below may still work.
    }
  }
  return copyWithSelection(text);
}
