/** `npm run start:projections`: the projection runner alone. */
import { configOrExit } from './config-or-exit.js';

// The configuration first: a refused one exits before the rest of Quern loads.
const config = configOrExit('Quern projections');
const { runUntilSignalled, startQuern } = await import('../main.js');
await runUntilSignalled(() => startQuern(config, { api: false, projections: true, workers: false }), 'Quern projections');
