/**
 * A one-off notice another page hands the home page through the router's navigation state, such
 * as 'Your account has been deleted.' after the profile's account deletion (the session is gone
 * by then, so nothing on the server could say it). Only the notices named here are shown: the
 * state is read as untrusted input, never as text.
 */
export const homeNotices = { accountDeleted: 'profile:accountDeletedMessage' } as const;
export type HomeNotice = keyof typeof homeNotices;

/** The navigation state that makes the home page show `notice`. */
export const homeNoticeState = (notice: HomeNotice): { notice: HomeNotice } => ({ notice });

/** The notice named in a navigation's state, or null when there is none or it is unknown. */
export function homeNoticeFromState(state: unknown): HomeNotice | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  const notice = (state as { notice: unknown }).notice;
  return typeof notice === 'string' && Object.hasOwn(homeNotices, notice) ? (notice as HomeNotice) : null;
}
