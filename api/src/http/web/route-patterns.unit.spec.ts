// Proves route matching as react-router matches: literal segments (any case), `:param` as one
// non-empty segment, `:param?` as an optional one, a trailing `*` as the rest, trailing slashes
// ignored, and paths compared decoded with an encoded slash kept inside its segment.
import { describe, expect, it } from 'vitest';
import { routeMatcher } from './route-patterns.js';

describe('routeMatcher', () => {
  it('given literal routes, when matched, then only the same segments match, in any case', () => {
    const isRoute = routeMatcher(['/', '/millix/send']);
    expect(isRoute('/')).toBe(true);
    expect(isRoute('/millix/send')).toBe(true);
    expect(isRoute('/Millix/SEND')).toBe(true);
    expect(isRoute('/millix/send/')).toBe(true);
    expect(isRoute('/millix')).toBe(false);
    expect(isRoute('/millix/send/more')).toBe(false);
    expect(isRoute('/millixXsend')).toBe(false);
  });

  it('given a :param, when matched, then it takes exactly one non-empty segment', () => {
    const isRoute = routeMatcher(['/users/:id', '/order.:kind']);
    expect(isRoute('/users/42')).toBe(true);
    expect(isRoute('/users')).toBe(false);
    expect(isRoute('/users/')).toBe(false);
    expect(isRoute('/users/42/edit')).toBe(false);
    // The dot is literal, not any character.
    expect(isRoute('/orderX:kind')).toBe(false);
  });

  it('given an optional :param?, when matched, then the segment may be there or not', () => {
    const isRoute = routeMatcher(['/reports/:year?']);
    expect(isRoute('/reports')).toBe(true);
    expect(isRoute('/reports/2024')).toBe(true);
    expect(isRoute('/reports/2024/05')).toBe(false);
  });

  it('given a trailing *, when matched, then the rest of the path matches, including nothing', () => {
    const isRoute = routeMatcher(['/docs/*']);
    expect(isRoute('/docs')).toBe(true);
    expect(isRoute('/docs/a/b/c')).toBe(true);
    expect(isRoute('/docsx')).toBe(false);
    expect(routeMatcher(['*'])('/any/thing')).toBe(true);
  });

  it('given an encoded path, when matched, then segments are compared decoded and %2F stays in its segment', () => {
    expect(routeMatcher(['/café'])('/caf%C3%A9')).toBe(true);
    expect(routeMatcher(['/users/:id'])('/users/a%2Fb')).toBe(true);
    expect(routeMatcher(['/a/b'])('/a%2Fb')).toBe(false);
    expect(routeMatcher(['/users/:id'])('/users/%E0%A4%A')).toBe(true);
  });

  it('given no routes, when matched, then nothing matches', () => {
    expect(routeMatcher([])('/')).toBe(false);
  });
});
