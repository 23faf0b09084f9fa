/**
 * The recovery codes as the profile's Copy and Download give them (issue 25): one code a line,
 * and for the file a first line saying whose codes they are, named after the product and the
 * username so a download among others is recognisable (`quern-recovery-codes-alice.txt`).
 */

/** The codes as copied: one a line, nothing else, so they paste cleanly into a password manager. */
export const recoveryCodesText = (codes: readonly string[]): string => `${codes.join('\n')}\n`;

/** A file name from the product and the username, reduced to characters every file system takes. */
export function recoveryCodesFileName(product: string, username: string): string {
  const safe = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const user = safe(username);
  return `${safe(product) || 'quern'}-recovery-codes${user ? `-${user}` : ''}.txt`;
}

/** The file's text: a heading line (translated by the caller), a blank line, then the codes. */
export const recoveryCodesFileText = (heading: string, codes: readonly string[]): string => `${heading}\n\n${recoveryCodesText(codes)}`;

/** Hands the text to the browser as a download of that name. */
export function downloadTextFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: the download has its own copy by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
