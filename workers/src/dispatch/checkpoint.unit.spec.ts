// Proves the dispatcher checkpoint distinguishes "scanned an empty log" from a position and refuses values it never writes.
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_START, checkpointValue, resumeAfter } from './checkpoint.js';

describe('dispatcher checkpoint values', () => {
  it('given an empty log, when checkpointed, then it resumes from the start', () => {
    expect(checkpointValue(undefined)).toBe(CHECKPOINT_START);
    expect(resumeAfter(checkpointValue(undefined))).toBeUndefined();
  });

  it('given a position, when checkpointed, then it resumes after that position', () => {
    expect(resumeAfter(checkpointValue(123n))).toBe(123n);
  });

  it.each(['', '-5', '007', 'START', '1e3'])('given %j, when resumed, then it is refused', (value) => {
    expect(() => resumeAfter(value)).toThrow(/invalid value/);
  });
});
