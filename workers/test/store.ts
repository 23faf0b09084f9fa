/** Test support: a real SQLite event store in a temporary directory (shared with the other workspaces). */
import { openTempStore as open } from '@quern/test-support/temp-store';

export type { TempStore } from '@quern/test-support/temp-store';
export const openTempStore = () => open('quern-workers-');
