/**
 * The web app's API: the tRPC procedures of every module in the list (modules.ts), each module's
 * router keyed by its namespace, merged into one. Each procedure calls the same handlers as REST.
 */
import type { AnyTRPCRouter } from '@trpc/server';
import { apiModules } from '../modules.js';
import { mergeRouters } from './init.js';

/** The modules' routers, position by position, with each one's own type (so AppRouter is exact). */
type TrpcRoutersOf<T extends readonly { trpc: AnyTRPCRouter }[]> = { -readonly [K in keyof T]: T[K]['trpc'] };

function trpcRoutersOf<const T extends readonly { trpc: AnyTRPCRouter }[]>(modules: T): TrpcRoutersOf<T> {
  // Array.map cannot say that it maps a tuple position by position; the mapped type says it.
  return modules.map((module) => module.trpc) as TrpcRoutersOf<T>;
}

export const appRouter = mergeRouters(...trpcRoutersOf(apiModules.routes));

export type AppRouter = typeof appRouter;
