// Proves the slogan timing in home.css (cycle length and keyframe offsets) matches the spec's
// 1.9 s in, 2 s out and 0.4 s delay as sloganTiming.ts states them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sloganCycleMs, sloganDelayMs, sloganInMs, sloganKeys, sloganOutMs, sloganSlotMs } from './sloganTiming.js';

// Read from disk: Vitest replaces CSS imports (even ?raw) with empty strings.
const homeCss = readFileSync(join(import.meta.dirname, 'home.css'), 'utf8');
const keyframes = /@keyframes quern-slogan \{([\s\S]*?)\n\}/.exec(homeCss)?.[1] ?? '';
const offsets = Array.from(keyframes.matchAll(/^\s*([\d.]+)% \{/gm), (match) => Number(match[1]));

describe('slogan timing', () => {
  it('given the spec timing, when derived, then a slot is 4.3 s and the six-slogan cycle 25.8 s', () => {
    expect([sloganInMs, sloganOutMs, sloganDelayMs]).toEqual([1900, 2000, 400]);
    expect(sloganKeys).toHaveLength(6);
    expect(sloganSlotMs).toBe(4300);
    expect(sloganCycleMs).toBe(25_800);
  });

  it('given home.css, when read, then the animation lasts one cycle and repeats forever', () => {
    expect(homeCss).toContain(`animation: quern-slogan ${sloganCycleMs / 1000}s linear infinite both;`);
  });

  it('given home.css, when read, then the keyframes are fully in at 1.9 s and fully out at 3.9 s of the cycle', () => {
    const percent = (ms: number) => Number(((ms / sloganCycleMs) * 100).toFixed(4));
    expect(offsets).toEqual([0, percent(sloganInMs), percent(sloganInMs + sloganOutMs), 100]);
  });
});
