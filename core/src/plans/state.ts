/** A plan folded from its stream: the current terms, the owner, and whether it was deleted. */
import { strictParser, type StreamModel } from '../shared/command-handler.js';
import { toPlanEvent, type PlanEvent, type PlanTerms } from './events.js';

export interface PlanState {
  planId: string;
  providerUserId: string;
  terms: PlanTerms;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

export function evolvePlan(state: PlanState | undefined, event: PlanEvent): PlanState | undefined {
  switch (event.type) {
    case 'PlanCreated': {
      const { planId, providerUserId, createdAt, name, description, priceMlx, currency, duration } = event.data;
      return { planId, providerUserId, terms: { name, description, priceMlx, currency, duration }, createdAt, updatedAt: createdAt };
    }
    case 'PlanUpdated': {
      if (!state) return state;
      const { name, description, priceMlx, currency, duration, updatedAt } = event.data;
      return { ...state, terms: { name, description, priceMlx, currency, duration }, updatedAt };
    }
    case 'PlanDeleted':
      return state && { ...state, deletedAt: event.data.deletedAt };
    case 'PlanPriceChangeAnnounced':
      return state;
  }
}

export const sameTerms = (a: PlanTerms, b: PlanTerms): boolean =>
  a.name === b.name &&
  a.description === b.description &&
  a.priceMlx === b.priceMlx &&
  a.currency === b.currency &&
  a.duration === b.duration;

/** A plan stream for the command pipeline: nothing before PlanCreated; an event it cannot read is refused. */
export const planModel: StreamModel<PlanState | undefined, PlanEvent> = {
  initialState: () => undefined,
  evolve: evolvePlan,
  parse: strictParser(toPlanEvent),
};
