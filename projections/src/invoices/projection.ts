/**
 * The invoices read model (issue 27): each merchant's invoices in creation order, and the same per
 * status for the list's filter. The invoice itself is not copied here: the API folds it from its
 * short stream, so an answer is never older than the log.
 *
 * An invoice moves between status sets keeping its creation position as score. The event names the
 * merchant and the new status but not that position, so a script run at EXEC reads it from the
 * merchant's set and moves the member; it reads only keys this projection wrote for earlier events,
 * so a rebuild in log order ends with the same sets.
 *
 * InvoiceCreated also adds the invoice to the merchant's by-time set (the CSV export's range), under
 * its own `createdAt` (else the time the log recorded it): both are in the log, so a rebuild agrees.
 */
import type { RecordedEvent } from '@quern/core';
import { INVOICE_STATUSES, isInvoiceEventType, toInvoiceEvent } from '@quern/core/invoices';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { invoiceTimeMember, merchantInvoicesByStatusKey, merchantInvoicesByTimeKey, merchantInvoicesKey } from './keys.js';

/** KEYS[1]: the merchant's set; KEYS[2..]: its status sets. ARGV[1]: the invoice; ARGV[2]: the index of its new status's key. */
const MOVE_TO_STATUS_SCRIPT = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
for i = 2, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end
redis.call('ZADD', KEYS[tonumber(ARGV[2])], score, ARGV[1])
return 1
`;

/** The invoice's creation time in ms: its own `createdAt`, else the time the log recorded the event, else 0. */
function createdMsOf(createdAt: string, event: RecordedEvent): number {
  const ms = Date.parse(createdAt);
  if (!Number.isNaN(ms) && ms >= 0) return ms;
  const recorded = Date.parse(event.recordedAt);
  return Number.isNaN(recorded) || recorded < 0 ? 0 : recorded;
}

const statusKeys = (merchantUserId: string): string[] =>
  INVOICE_STATUSES.map((status) => merchantInvoicesByStatusKey(merchantUserId, status));

export const invoicesProjection: Projection = {
  name: 'invoices',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    if (!isInvoiceEventType(event.type)) return;
    const invoice = toInvoiceEvent(event);
    if (!invoice) throw new Error(`${event.type} at ${event.position} is not a well-formed invoice event`);
    if (invoice.type === 'InvoiceCreated') {
      const { merchantUserId, invoiceId } = invoice.data;
      tx.zadd(merchantInvoicesKey(merchantUserId), event.position.toString(), invoiceId);
      tx.zadd(merchantInvoicesByStatusKey(merchantUserId, 'open'), event.position.toString(), invoiceId);
      tx.zadd(merchantInvoicesByTimeKey(merchantUserId), 0, invoiceTimeMember(createdMsOf(invoice.data.createdAt, event), invoiceId));
      return;
    }
    const { merchantUserId, invoiceId, status, previousStatus } = invoice.data;
    if (status === previousStatus) return;
    const keys = [merchantInvoicesKey(merchantUserId), ...statusKeys(merchantUserId)];
    tx.eval(MOVE_TO_STATUS_SCRIPT, keys.length, ...keys, invoiceId, String(INVOICE_STATUSES.indexOf(status) + 2));
  },
};
