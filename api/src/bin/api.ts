/** `npm run start:api`: the HTTP api alone (projections and workers run elsewhere). */
import { configOrExit } from './config-or-exit.js';

// The configuration first: a refused one exits before the rest of Quern loads.
const config = configOrExit('Quern api');
const { runUntilSignalled, startQuern } = await import('../main.js');
await runUntilSignalled(() => startQuern(config, { api: true, projections: false, workers: false }), 'Quern api');
