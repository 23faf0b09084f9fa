/**
 * Chooses the millix network for this process: the millix node HTTP API when MILLIX_NODE_URL is
 * configured (with the node's id and signature), otherwise the simulated network under DATA_DIR
 * (the offline default; `npm run faucet` deposits into it). See ADR 008.
 */
import { join } from 'node:path';
import { JOURNAL_FILE_NAME } from './node-journal.js';
import { type MillixNodeNetwork, openMillixNodeNetwork } from './node-http.js';
import type { MillixNetworkPort } from './port.js';
import { openSimulatedNetwork, SIMULATED_NETWORK_FILE_NAME } from './simulated.js';

export { cHash288, isMillixTransactionId } from './chash.js';
/** File names under DATA_DIR, for the backup (ADR 054). */
export { JOURNAL_FILE_NAME } from './node-journal.js';
export { SIMULATED_NETWORK_FILE_NAME } from './simulated.js';
export { openMillixNodeNetwork, type MillixNodeNetwork, type MillixNodeOptions } from './node-http.js';
export { type NodeNotification, parseNodeNotification } from './node-protocol.js';
// The port itself, for the wiring code, until `@quern/core/wallet` re-exports it.
export * from './port.js';
export {
  DEFAULT_CONFIRM_DELAY_MS,
  openSimulatedNetwork,
  simulatedFaucetAddress,
  type SimulatedNetwork,
  type SimulatedNetworkOptions,
} from './simulated.js';

export interface MillixNetworkConfig {
  millixNodeUrl?: string;
  millixNodeId?: string;
  millixNodeSignature?: string;
  dataDir: string;
  confirmDelayMs: number;
}

/**
 * The port, plus `incomingFromNotification` when the network is a node: the api mounts the
 * node's notification webhook only then.
 */
export type OpenedMillixNetwork = MillixNetworkPort & Partial<Pick<MillixNodeNetwork, 'incomingFromNotification'>>;

export function openMillixNetwork(config: MillixNetworkConfig): OpenedMillixNetwork {
  if (config.millixNodeUrl) {
    // Half a node configuration is a mistake to report at start-up, not a reason to fall back
    // to the simulated network (which would silently accept sends that never leave Quern).
    if (!config.millixNodeId || !config.millixNodeSignature) {
      throw new Error('MILLIX_NODE_URL is set: MILLIX_NODE_ID and MILLIX_NODE_SIGNATURE are required too');
    }
    return openMillixNodeNetwork({
      baseUrl: config.millixNodeUrl,
      nodeId: config.millixNodeId,
      nodeSignature: config.millixNodeSignature,
      journalFile: join(config.dataDir, JOURNAL_FILE_NAME),
    });
  }
  return openSimulatedNetwork({ file: simulatedNetworkFile(config.dataDir), confirmDelayMs: config.confirmDelayMs });
}

/** The simulated network's file under a data directory (the faucet opens the same one). */
export const simulatedNetworkFile = (dataDir: string): string => join(dataDir, SIMULATED_NETWORK_FILE_NAME);
