/** `npm run start:workers`: the job dispatcher and the BullMQ workers alone. */
import { loadConfig } from '../config.js';
import { runUntilSignalled, startQuern } from '../main.js';

await runUntilSignalled(() => startQuern(loadConfig(), { api: false, projections: false, workers: true }), 'Quern workers');
