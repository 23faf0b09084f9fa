/** @quern/projections: the projection runner, rebuild, the read models and their queries. */
import type { Projection } from './types.js';
import { usersProjection } from './users/projection.js';
import { walletsProjection } from './wallets/projection.js';

export { startProjections, type ProjectionRunner, type ProjectionRunnerStatus, type StartProjectionsOptions } from './runner.js';
export { rebuildProjections, type RebuildProjectionsOptions, type RebuildReport } from './rebuild.js';
export { DEFAULT_CHECKPOINT_KEY, READ_MODEL_KEY_PREFIX, type Projection } from './types.js';
export { usersProjection } from './users/projection.js';
export { findUserIdByEmail, findUserIdByUsername, getUser, type UserReadModel } from './users/queries.js';
export { USER_ID_BY_EMAIL_KEY, USER_ID_BY_USERNAME_KEY, userKey } from './users/keys.js';
export { walletsProjection } from './wallets/projection.js';
export {
  findWalletIdByAddress,
  getPendingTransactions,
  getTransactionsPage,
  getWalletAddress,
  getWalletBalance,
} from './wallets/queries.js';
export { WALLET_ID_BY_ADDRESS_KEY, walletHistoryKey, walletKey, walletPendingKey } from './wallets/keys.js';

/** Every projection the app runs; order matters only for determinism, not for correctness. */
export const allProjections: readonly Projection[] = [usersProjection, walletsProjection];
