/** Time enters the domain as data: handlers receive a Clock, deciders receive `now` values. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
