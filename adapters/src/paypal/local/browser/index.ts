export { createLocalPayPalBrowserRoutes } from './routes.js';
export { LOCAL_BUYER, type LocalPayPalBrowserState, type LocalPayPalOrderView } from './state.js';
export { POPUP_TEXT } from './pages.js';
