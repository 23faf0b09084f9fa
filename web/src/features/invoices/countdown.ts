/** The time an invoice has left, as the page counts it down: whole seconds, never negative. */
export function secondsLeft(expiresAt: string, nowMs: number): number {
  const left = Math.floor((Date.parse(expiresAt) - nowMs) / 1000);
  return Number.isFinite(left) && left > 0 ? left : 0;
}

/** `h:mm:ss` over an hour, else `m:ss`: a countdown reads the same in every language. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
