/**
 * The spec's slogan timing: each slogan fades in over 1.9 s, fades out over 2 s, and the next one
 * starts 0.4 s later, forever. home.css holds the same numbers as keyframe percentages of the
 * whole cycle (CSS cannot compute keyframe offsets from variables); a unit test keeps the two
 * in step.
 */
export const sloganKeys = ['effortless', 'network', 'versatile', 'security', 'integration', 'conversion'] as const;
export type SloganKey = (typeof sloganKeys)[number];

export const sloganInMs = 1900;
export const sloganOutMs = 2000;
export const sloganDelayMs = 400;
/** One slogan's turn: in, out, then the pause before the next. */
export const sloganSlotMs = sloganInMs + sloganOutMs + sloganDelayMs;
/** All six turns; every slogan's animation repeats with this period. */
export const sloganCycleMs = sloganSlotMs * sloganKeys.length;
