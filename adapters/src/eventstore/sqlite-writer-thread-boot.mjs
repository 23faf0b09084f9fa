// Entry point of the SQLite writer thread (ADR 021). The thread's code is TypeScript: when this
// process already loads TypeScript (node --import tsx, inherited by workers) it is imported
// directly; otherwise (e.g. under vitest, which transforms only the main thread) tsx is
// registered in this thread first.
const thread = new URL('./sqlite-writer-thread.ts', import.meta.url);
try {
  await import(thread.href);
} catch (error) {
  if (error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  const { register } = await import('tsx/esm/api');
  register();
  // A new specifier: the failed load above stays cached under the plain one.
  await import(`${thread.href}?with-tsx`);
}
