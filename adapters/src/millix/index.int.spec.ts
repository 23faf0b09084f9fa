// Proves openMillixNetwork picks the simulated network by default and the node adapter when a
// node URL is configured, and refuses half a node configuration instead of falling back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeMillixNode } from './fake-node-server.js';
import { openMillixNetwork } from './index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'quern-millix-index-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('openMillixNetwork', () => {
  it('opens the simulated network under DATA_DIR when no node is configured', async () => {
    const network = openMillixNetwork({ dataDir, confirmDelayMs: 0, millixNodeUrl: '' });
    try {
      expect(network.incomingFromNotification).toBeUndefined();
      expect(await network.incomingSince(undefined, 1)).toEqual({ transactions: [], cursor: '0' });
    } finally {
      await network.close();
    }
  });

  it('speaks to the node when its URL, id and signature are configured', async () => {
    const node = await startFakeMillixNode();
    const network = openMillixNetwork({
      dataDir,
      confirmDelayMs: 0,
      millixNodeUrl: node.url,
      millixNodeId: node.nodeId,
      millixNodeSignature: node.nodeSignature,
    });
    try {
      expect(network.incomingFromNotification).toBeTypeOf('function');
      await network.balance(node.walletAddress);
      expect(node.requests.map((request) => request.endpointId)).toEqual(['zLsiAkocn90e3K6R']);
    } finally {
      await network.close();
      await node.close();
    }
  });

  it('refuses a node URL without the node id or signature', () => {
    expect(() => openMillixNetwork({ dataDir, confirmDelayMs: 0, millixNodeUrl: 'https://127.0.0.1:5500', millixNodeId: 'id' })).toThrow(
      /MILLIX_NODE_SIGNATURE/,
    );
  });
});
