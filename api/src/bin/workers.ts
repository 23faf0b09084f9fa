/** `npm run start:workers`: the job dispatcher and the BullMQ workers alone. */
import { configOrExit } from './config-or-exit.js';

// The configuration first: a refused one exits before the rest of Quern loads.
const config = configOrExit('Quern workers');
const { runUntilSignalled, startQuern } = await import('../main.js');
await runUntilSignalled(() => startQuern(config, { api: false, projections: false, workers: true }), 'Quern workers');
