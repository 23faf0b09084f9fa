/**
 * What one api capability registers, in one place (ADR 068): its tRPC procedures (a router keyed by
 * the capability's namespace, merged into the web app's AppRouter), its REST routes under /api and
 * its /api/v1 operations. The list of modules (api/src/modules.ts) is the only place its routes
 * are named; the app, the tRPC router and the v1 route table are built by walking it. Its service
 * is composed in its composition.ts and listed in api/src/services.ts (ADR 073).
 */
import type { AnyTRPCRouter } from '@trpc/server';
import type { Router } from 'express';
import type { V1Route } from '../v1/route.js';
import type { ContextFactory } from './rest.js';

/** What the app hands every module's REST routes besides the request context. */
export interface RestMountOptions {
  /** Origins allowed to make cookie-authenticated calls (the public URL). */
  allowedOrigins: ReadonlySet<string>;
}

export interface ApiModule<TRouter extends AnyTRPCRouter = AnyTRPCRouter> {
  /** The capability's name, as its folder is named (logs and errors about the list name it). */
  name: string;
  /**
   * The web app's procedures of this capability, keyed by their namespace (`{ wallet: walletRouter }`);
   * `router({})` for a capability the web app does not call.
   */
  trpc: TRouter;
  /** Its routes under /api, mounted in the list's order. */
  rest?: (createContext: ContextFactory, options: RestMountOptions) => Router;
  /** Its merchant API operations under /api/v1, in the order the reference lists them. */
  v1?: readonly V1Route[];
}

/** Typed constructor: keeps the module's own router type, so the merged AppRouter stays exact. */
export const apiModule = <TRouter extends AnyTRPCRouter>(module: ApiModule<TRouter>): ApiModule<TRouter> => module;
