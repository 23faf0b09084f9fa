export { startQuern, type Parts, type RunningQuern } from './main.js';
export { CAPTCHA_ITERATIONS_DEFAULT, loadConfig, type Config } from './config.js';
export type { AppRouter } from './trpc/router.js';
export { EXPORT_PAGE_SIZE, writePaymentsCsv } from './payments/csv-export.js';
