/** Test support: a real SQLite event store in a temporary directory (shared with the other workspaces). */
import { openTempStore as open } from '../../../test-support/temp-store.js';

export type { TempStore } from '../../../test-support/temp-store.js';
export const openTempStore = () => open('quern-workers-');
