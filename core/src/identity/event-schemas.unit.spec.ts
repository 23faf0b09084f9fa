// Proves recorded user events read back as typed events only when their data is well-formed, so readers never guess at fields.
import { describe, expect, it } from 'vitest';
import { toUserEvent } from './event-schemas.js';

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
