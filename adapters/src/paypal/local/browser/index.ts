export { createLocalPayPalBrowserRoutes } from './routes.js';
export { LOCAL_BUYER, type LocalPayPalBrowserState, type LocalPayPalOrderView, type PayerCheck, type PayerGuard } from './state.js';
export type { LocalPayPalBrowserOptions } from './routes.js';
export { POPUP_TEXT } from './pages.js';
