/** Every /api/v1 operation, in the order the reference lists them: each module's, in the list's order (modules.ts). */
import { apiModules } from '../modules.js';
import type { V1Route } from './route.js';

export const v1RouteTable: readonly V1Route[] = apiModules.routes.flatMap((module) => module.v1 ?? []);
