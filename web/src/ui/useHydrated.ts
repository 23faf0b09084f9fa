import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * False while React is taking over a prerendered page (and on the server), true once it has: a
 * prerendered form must not be submitted natively before its handlers exist (ADR 023).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
