// Proves the home page shows only the notices it knows from a navigation's state, and reads any
// other state (another page's, a forged one, none) as no notice.
import { describe, expect, it } from 'vitest';
import { homeNoticeFromState, homeNoticeState } from './homeNotice.js';

describe('homeNoticeFromState', () => {
  it('given the state the account deletion passes, then it is the account-deleted notice', () => {
    expect(homeNoticeFromState(homeNoticeState('accountDeleted'))).toBe('accountDeleted');
  });

  it.each([
    [null],
    [undefined],
    ['accountDeleted'],
    [{}],
    [{ notice: 'Your bank was hacked' }],
    [{ notice: 'toString' }],
    [{ notice: 1 }],
    [{ message: 'Plan deleted.' }],
  ])('given the state %j, then there is no notice', (state) => {
    expect(homeNoticeFromState(state)).toBeNull();
  });
});
