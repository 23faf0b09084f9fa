// Proves Quern writes and checks millix transaction ids exactly as millix-node does: real ids
// from millix-node's genesis config pass the check, a changed character fails it, and the ids
// Quern makes are deterministic and pass it too.
import { describe, expect, it } from 'vitest';
import { cHash288, isMillixTransactionId } from './chash.js';

// core/genesis/genesis-config.js in millix/millix-node: genesis transaction and shard ids of
// mainnet and testnet (all made by getCHash288).
const REAL_IDS = [
  '2VngVznbdiQ5tqfWqn2NMP8DijqCbLX79Gygo9yYRVFU6iN35h',
  'z83hpG6RVcyUwq6nFsw1jiMgPLhdoMabiNQX8rNW5rrwMEfDy',
  'qGuUgMMVmaCvqrvoWG6zARjkrujGMpzJmpNhBgz1y3RjBG7ZR',
  'UqnsGsRQGtxK3z5yURxt23MX2A7u5wAsMmTvYqrzqACD2W4ne',
];

describe('millix transaction ids (cHash288)', () => {
  it('accepts real millix ids', () => {
    for (const id of REAL_IDS) expect(isMillixTransactionId(id)).toBe(true);
  });

  it('refuses an id with one character changed, other lengths, and non-Base58 text', () => {
    const [id = ''] = REAL_IDS;
    const changed = `${id.slice(0, 10)}${id[10] === 'a' ? 'b' : 'a'}${id.slice(11)}`;
    expect(isMillixTransactionId(changed)).toBe(false);
    expect(isMillixTransactionId(id.slice(1))).toBe(false);
    expect(isMillixTransactionId(`${id}1`)).toBe(false);
    expect(isMillixTransactionId(id.replace(/.$/, '0'))).toBe(false);
    expect(isMillixTransactionId('')).toBe(false);
    expect(isMillixTransactionId('x'.repeat(500))).toBe(false);
  });

  it('makes deterministic ids that pass the same check', () => {
    const id = cHash288('quern-simulated-send:transfer-1');
    expect(cHash288('quern-simulated-send:transfer-1')).toBe(id);
    expect(cHash288('quern-simulated-send:transfer-2')).not.toBe(id);
    expect(id.length).toBeGreaterThanOrEqual(48);
    expect(id.length).toBeLessThanOrEqual(50);
    for (let n = 0; n < 200; n += 1) expect(isMillixTransactionId(cHash288(`sample-${n}`))).toBe(true);
  });
});
