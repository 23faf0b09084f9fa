/**
 * The typed list of api capabilities (ADR 073): each capability is listed once, with its service's
 * composer and its routes. Services are built in the list's order, each composer seeing the services
 * listed before it; routes are mounted in the list's order too, unless a capability says whose routes
 * it is mounted before (its service may need one listed before it whose routes come after).
 */
import type { AnyTRPCRouter } from '@trpc/server';
import type { CompositionContext } from '../composition.js';
import type { ApiModule, ApiRoutes } from './api-module.js';

/** Services under names the list does not hold yet. */
type NewNames<Built extends object> = object & { [Name in keyof Built]?: never };

/** `Routes` with `Added` put just before the one named `Before`. */
type MountedBefore<Routes extends readonly ApiRoutes[], Before extends string, Added extends ApiRoutes> = Routes extends readonly [
  infer First extends ApiRoutes,
  ...infer Rest extends readonly ApiRoutes[],
]
  ? First['name'] extends Before
    ? [Added, First, ...Rest]
    : [First, ...MountedBefore<Rest, Before, Added>]
  : [Added];

/** Where a capability's routes go when not at the end: before those of the capability named. */
export interface MountPosition<Before extends string> {
  routesBefore: Before;
}

export class ApiModuleList<Built extends object, Routes extends readonly ApiRoutes[]> {
  static readonly empty: ApiModuleList<Record<never, never>, []> = new ApiModuleList(() => ({}), []);

  private constructor(
    private readonly composeAll: (context: CompositionContext) => Built,
    /** Every capability's routes, in the order they are mounted and the reference lists them. */
    readonly routes: Routes,
  ) {}

  /**
   * A capability whose composer names a service not listed before it does not compile, nor one
   * that provides a name already taken (the later would hide the earlier in every context).
   */
  with<TRouter extends AnyTRPCRouter, Provided extends NewNames<Built>, Name extends string>(
    module: ApiModule<TRouter, Built, Provided, Name>,
  ): ApiModuleList<Built & Provided, [...Routes, ApiRoutes<TRouter, Name>]>;
  with<TRouter extends AnyTRPCRouter, Provided extends NewNames<Built>, Name extends string, Before extends Routes[number]['name']>(
    module: ApiModule<TRouter, Built, Provided, Name>,
    position: MountPosition<Before>,
  ): ApiModuleList<Built & Provided, MountedBefore<Routes, Before, ApiRoutes<TRouter, Name>>>;
  with<TRouter extends AnyTRPCRouter, Provided extends NewNames<Built>, Name extends string>(
    module: ApiModule<TRouter, Built, Provided, Name>,
    position?: MountPosition<string>,
  ): ApiModuleList<Built & Provided, readonly ApiRoutes[]> {
    const at = position ? this.routes.findIndex((listed) => listed.name === position.routesBefore) : this.routes.length;
    if (at < 0) throw new Error(`${module.name}: no capability named ${position?.routesBefore} is listed before it`);
    return new ApiModuleList(
      (context) => {
        const built = this.composeAll(context);
        return { ...built, ...module.compose(context, built) };
      },
      [...this.routes.slice(0, at), module, ...this.routes.slice(at)],
    );
  }

  /** Every capability's service, built in the list's order from what the process opened. */
  compose(context: CompositionContext): Built {
    return this.composeAll(context);
  }
}

/** The services a list builds, by name. */
export type ServicesOf<List> = List extends ApiModuleList<infer Built, readonly ApiRoutes[]> ? Built : never;

/**
 * `true` when a list builds exactly the services declared on the request context; otherwise what
 * differs, so the compiler's message names it.
 */
export type BuildsExactly<Built, Declared> = [Exclude<keyof Declared, keyof Built>] extends [never]
  ? [Exclude<keyof Built, keyof Declared>] extends [never]
    ? [Built] extends [Declared]
      ? [Declared] extends [Built]
        ? true
        : { builtWithAnotherType: keyof Declared }
      : { builtWithAnotherType: keyof Declared }
    : { builtButNotDeclared: Exclude<keyof Built, keyof Declared> }
  : { declaredButNotListed: Exclude<keyof Declared, keyof Built> };
