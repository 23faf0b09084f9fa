/** A feed event's id: `evt_` and the digest the fan-out names its source event by, so it never changes. */
import { webhookFanOutId, type SourceEventRef } from '../webhooks/ids.js';

export const feedEventIdOf = (source: SourceEventRef): string => `evt_${webhookFanOutId(source)}`;
