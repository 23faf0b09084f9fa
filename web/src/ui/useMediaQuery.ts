import { useCallback, useSyncExternalStore } from 'react';

/**
 * The phone layout of the dashboard (cards instead of tables, short dates): viewports up to
 * 600 CSS pixels wide, as the design asks. Written in px, not rem, because it names a device
 * width rather than a text size.
 */
export const MOBILE_MEDIA_QUERY = '(max-width: 600px)';

/**
 * Whether a media query matches now, following changes (rotation, resizing). Where the browser
 * has no matchMedia (old engines, test DOMs) it answers false, the desktop layout, which works at
 * every width.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const matches = () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  return useSyncExternalStore(subscribe, matches, () => false);
}

export const useIsMobile = (): boolean => useMediaQuery(MOBILE_MEDIA_QUERY);
