/** `npm start`: the api, projections and workers in one process on the embedded default. */
import { loadConfig } from '../config.js';
import { runUntilSignalled, startQuern } from '../main.js';

await runUntilSignalled(() => startQuern(loadConfig(), { api: true, projections: true, workers: true }), 'Quern');
