export { startQuern, type Parts, type RunningQuern } from './main.js';
export { loadConfig, type Config } from './config.js';
export type { AppRouter } from './trpc/router.js';
