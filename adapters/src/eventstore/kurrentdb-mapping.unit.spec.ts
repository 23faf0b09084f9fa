// Proves KurrentDB events map to the port's RecordedEvent with the commit position as the single
// position, and that events the port cannot represent faithfully are refused rather than mangled.
import { START } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { type KurrentRecordedEvent, METADATA_ENVELOPE_KEY, mapEvent, toReadPosition, wrapMetadata } from './kurrentdb-mapping.js';

const recorded = (overrides: Partial<KurrentRecordedEvent> = {}): KurrentRecordedEvent => ({
  streamId: 'wallet-1',
  id: '5b1c7c4e-8a0e-4b8e-9f55-0b8f6a4c2d11',
  revision: 3n,
  type: 'Credited',
  created: new Date('2025-01-02T03:04:05.678Z'),
  isJson: true,
  data: { amountMlx: '1000' },
  metadata: { correlationId: 'c' },
  position: { commit: 4096n, prepare: 4096n },
  ...overrides,
});

describe('mapEvent', () => {
  it('maps a JSON event, using the commit position as the position', () => {
    expect(mapEvent(recorded())).toEqual({
      id: '5b1c7c4e-8a0e-4b8e-9f55-0b8f6a4c2d11',
      streamId: 'wallet-1',
      revision: 3n,
      position: 4096n,
      type: 'Credited',
      data: { amountMlx: '1000' },
      metadata: { correlationId: 'c' },
      recordedAt: '2025-01-02T03:04:05.678Z',
    });
  });

  it('gives an event stored without metadata an empty metadata object', () => {
    expect(mapEvent(recorded({ metadata: undefined })).metadata).toEqual({});
  });

  it('refuses events it cannot represent faithfully', () => {
    expect(() => mapEvent(recorded({ position: undefined }))).toThrow(/22\.6/);
    expect(() => mapEvent(recorded({ position: { commit: 5000n, prepare: 4096n } }))).toThrow(/explicit transaction/);
    expect(() => mapEvent(recorded({ isJson: false, data: new Uint8Array([1]) }))).toThrow(/JSON object/);
    expect(() => mapEvent(recorded({ data: [1, 2] }))).toThrow(/JSON object/);
    expect(() => mapEvent(recorded({ metadata: new Uint8Array([1]) }))).toThrow(/metadata/);
  });
});

describe('toReadPosition', () => {
  it('reads from the start without a checkpoint and from (p, p) with one', () => {
    expect(toReadPosition(undefined)).toBe(START);
    expect(toReadPosition(2n ** 60n)).toEqual({ commit: 2n ** 60n, prepare: 2n ** 60n });
  });
});

describe('metadata envelope (multi-stream appends carry string-valued metadata only)', () => {
  it('wraps any JSON metadata into one string property and mapEvent unwraps it, ignoring server-added properties', () => {
    // Given metadata with nested and non-string values
    const metadata = { correlationId: 'c-1', causation: { by: 'test' }, attempt: 2 };
    // When it is wrapped for the server and read back with an extra property the server may add
    const wrapped = wrapMetadata(metadata);
    expect(wrapped).toEqual({ [METADATA_ENVELOPE_KEY]: JSON.stringify(metadata) });
    const read = mapEvent(recorded({ metadata: { ...wrapped, '$schema.name': 'Credited' } }));
    // Then the reader sees exactly the original metadata
    expect(read.metadata).toEqual(metadata);
  });

  it('sends no metadata for an empty object, and refuses an envelope that is not a JSON object string', () => {
    expect(wrapMetadata({})).toBeUndefined();
    expect(() => mapEvent(recorded({ metadata: { [METADATA_ENVELOPE_KEY]: 3 } }))).toThrow(/not a string/);
    expect(() => mapEvent(recorded({ metadata: { [METADATA_ENVELOPE_KEY]: '[1]' } }))).toThrow(/JSON object/);
  });
});
