/** `npm run start:api`: the HTTP api alone (projections and workers run elsewhere). */
import { loadConfig } from '../config.js';
import { runUntilSignalled, startQuern } from '../main.js';

await runUntilSignalled(() => startQuern(loadConfig(), { api: true, projections: false, workers: false }), 'Quern api');
