// Proves recorded user events read back as typed events only when their data is well-formed, so readers never guess at fields.
import { describe, expect, it } from 'vitest';
import { toIdentityKeyEvent, toUserEvent } from './event-schemas.js';

const requested = { userId: 'u1', requestId: 'r1', expiresAt: '2026-01-01T01:00:00.000Z', requestedAt: '2026-01-01T00:00:00.000Z' };

describe('toUserEvent', () => {
  it('given a well-formed PasswordResetRequested, when read, then it is the typed event with its data', () => {
    expect(toUserEvent({ type: 'PasswordResetRequested', data: requested })).toEqual({ type: 'PasswordResetRequested', data: requested });
  });

  it('given a request without its request id, when read, then it is not an event', () => {
    const { requestId: _, ...withoutRequestId } = requested;
    expect(toUserEvent({ type: 'PasswordResetRequested', data: withoutRequestId })).toBeUndefined();
  });

  it('given a password change by another route than reset or profile, when read, then it is not an event', () => {
    const data = { userId: 'u1', passwordHash: 'h', changedAt: '2026-01-01T00:00:00.000Z', via: 'guess' };
    expect(toUserEvent({ type: 'PasswordChanged', data })).toBeUndefined();
  });

  it('given a type that is not a user event, when read, then it is not an event', () => {
    expect(toUserEvent({ type: 'TransferReserved', data: requested })).toBeUndefined();
    expect(toUserEvent({ type: 'toString', data: {} })).toBeUndefined();
  });
});

describe('toIdentityKeyEvent', () => {
  const claimed = { kind: 'email', value: 'ada@example.com', userId: 'u1', claimedAt: '2026-01-01T00:00:00.000Z' };

  it('given a well-formed IdentityKeyClaimed, when read, then it is the typed event with its data', () => {
    expect(toIdentityKeyEvent({ type: 'IdentityKeyClaimed', data: claimed })).toEqual({ type: 'IdentityKeyClaimed', data: claimed });
  });

  it('given a claim of a deleted account whose value is erased, when read, then it still reads', () => {
    expect(toIdentityKeyEvent({ type: 'IdentityKeyClaimed', data: { ...claimed, value: '[erased]' } })?.type).toBe('IdentityKeyClaimed');
  });

  it('given a claim without its holder or of an unknown kind, or a user event, when read, then it is not an identity-key event', () => {
    const { userId: _, ...withoutHolder } = claimed;
    expect(toIdentityKeyEvent({ type: 'IdentityKeyClaimed', data: withoutHolder })).toBeUndefined();
    expect(
      toIdentityKeyEvent({ type: 'IdentityKeyReleased', data: { ...claimed, kind: 'iban', releasedAt: claimed.claimedAt } }),
    ).toBeUndefined();
    expect(toIdentityKeyEvent({ type: 'UserSignedIn', data: { userId: 'u1', signedInAt: claimed.claimedAt } })).toBeUndefined();
  });
});
