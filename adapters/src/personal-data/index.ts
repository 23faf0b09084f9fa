export { openKeyVault, type KeyVault } from './key-vault.js';
export { loadMasterKey, parseMasterKey } from './master-key.js';
export { openEvent, sealEvent, withPersonalDataSealing, type SealingEventStore } from './sealing-store.js';
export { sealLogInto, type MigrationReport } from './migrate.js';
