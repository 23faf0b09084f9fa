export { openKeyVault, type KeyVault } from './key-vault.js';
export { loadMasterKey, parseMasterKey } from './master-key.js';
export { openEvent, sealEvent, withPersonalDataSealing, type SealingEventStore } from './sealing-store.js';
export { sealLogInto, type MigrationReport } from './migrate.js';
export { finishRotation, rotateMasterKey, type RotationReport } from './rotate.js';
export { MASTER_KEY_FILE, masterKeyId, masterKeySource, newMasterKey, writeMasterKeyFile } from './master-key.js';
