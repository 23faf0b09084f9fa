/** `npm start`: the api, projections and workers in one process on the embedded default. */
import { configOrExit } from './config-or-exit.js';

// The configuration first: a refused one exits before the rest of Quern loads.
const config = configOrExit('Quern');
const { runUntilSignalled, startQuern } = await import('../main.js');
await runUntilSignalled(() => startQuern(config, { api: true, projections: true, workers: true }), 'Quern');
