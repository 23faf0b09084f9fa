/** `npm run start:projections`: the projection runner alone. */
import { loadConfig } from '../config.js';
import { runUntilSignalled, startQuern } from '../main.js';

await runUntilSignalled(() => startQuern(loadConfig(), { api: false, projections: true, workers: false }), 'Quern projections');
