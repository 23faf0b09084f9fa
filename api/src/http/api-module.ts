/**
 * What one api capability registers, in one place (ADR 068, ADR 073): the composer of its service,
 * its tRPC procedures (a router keyed by the capability's namespace, merged into the web app's
 * AppRouter), its REST routes under /api and its /api/v1 operations. The list of modules
 * (api/src/modules.ts) is the only place a capability is named; the services, the app, the tRPC
 * router and the v1 route table are built by walking it.
 */
import type { AnyTRPCRouter } from '@trpc/server';
import type { Router } from 'express';
import type { ServiceComposer } from '../composition.js';
import type { V1Route } from '../v1/route.js';
import type { ContextFactory } from './rest.js';

/** What the app hands every module's REST routes besides the request context. */
export interface RestMountOptions {
  /** Origins allowed to make cookie-authenticated calls (the public URL). */
  allowedOrigins: ReadonlySet<string>;
}

/** A capability's routes: what the app, the tRPC router and the v1 route table read from the list. */
export interface ApiRoutes<TRouter extends AnyTRPCRouter = AnyTRPCRouter, Name extends string = string> {
  /** The capability's name, as its folder is named (logs, errors and the list's mount order name it). */
  name: Name;
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

/**
 * A capability: its routes and the composer of its service (its composition.ts), which names the
 * services it needs from those listed before it (`Needs`) and adds its own (`Provided`).
 */
export interface ApiModule<TRouter extends AnyTRPCRouter, Needs extends object, Provided extends object, Name extends string = string>
  extends ApiRoutes<TRouter, Name> {
  compose: ServiceComposer<Needs, Provided>;
}

/**
 * Typed constructor: keeps the module's own router type (so the merged AppRouter stays exact), the
 * services its composer needs and provides, and its name (the list's mount order refers to it).
 */
export const apiModule = <TRouter extends AnyTRPCRouter, Needs extends object, Provided extends object, const Name extends string>(
  module: ApiModule<TRouter, Needs, Provided, Name>,
): ApiModule<TRouter, Needs, Provided, Name> => module;
