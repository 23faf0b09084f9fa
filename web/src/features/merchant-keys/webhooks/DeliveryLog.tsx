/**
 * One endpoint's delivery log: each delivery with its latest attempt (time, event, attempt
 * number, status code, duration, delivered) and a Redeliver button once it is no longer being
 * attempted. It polls while a delivery is pending, so a retry shows up without a reload, and
 * while a delivery just asked for (a test event, `awaiting`) is not listed yet: the log is a read
 * model that catches up a moment after the request.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../../app/data/trpc.js';
import { formatDateTime, pageLanguage } from '../../../i18n/format.js';
import { FormAlert } from '../../../ui/FormAlert.js';
import { LoadingStatus } from '../../../ui/LoadingStatus.js';
import { eventNameKey } from './eventName.js';

const POLL_WHILE_PENDING_MS = 3_000;

export function DeliveryLog({ endpointId, url, awaiting }: { endpointId: string; url: string; awaiting?: string | null }) {
  const { t } = useTranslation('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { id: endpointId, limit: 20 };
  const log = useQuery({
    ...trpc.webhooks.deliveries.queryOptions(input),
    refetchInterval: (query) => {
      const listed = query.state.data?.data ?? [];
      const waiting = listed.some((d) => d.status === 'pending') || (awaiting ? !listed.some((d) => d.id === awaiting) : false);
      return waiting ? POLL_WHILE_PENDING_MS : false;
    },
  });
  const redeliver = useMutation(trpc.webhooks.redeliver.mutationOptions());
  const [failed, setFailed] = useState(false);
  const time = { format: (iso: string) => formatDateTime(iso, pageLanguage()) };

  const onRedeliver = async (delivery: string) => {
    setFailed(false);
    try {
      await redeliver.mutateAsync({ id: endpointId, delivery });
    } catch {
      setFailed(true);
    }
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey(input) });
  };

  if (log.isPending) return <LoadingStatus />;
  const deliveries = log.data?.data ?? [];
  if (deliveries.length === 0) return <p className="webhook-log-empty">{t('logEmpty')}</p>;
  return (
    <>
      {failed ? <FormAlert kind="error">{t('redeliverFailed')}</FormAlert> : null}
      <div className="webhook-log-scroll">
        <table className="webhook-log" data-testid="webhook-log">
          <caption className="visually-hidden">{t('logCaption', { url })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('time')}</th>
              <th scope="col">{t('event')}</th>
              <th scope="col">{t('attempt')}</th>
              <th scope="col">{t('statusCode')}</th>
              <th scope="col">{t('duration')}</th>
              <th scope="col">{t('delivered')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('redeliver')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => {
              const last = delivery.attempts.at(-1);
              return (
                <tr key={delivery.id}>
                  <td>{time.format(last?.started_at ?? delivery.created_at)}</td>
                  <td>{t(eventNameKey(delivery.event_type))}</td>
                  <td>{last ? delivery.attempts.length : '—'}</td>
                  <td>{last ? (last.status_code ?? t('noAnswer', { error: last.error ?? '' })) : '—'}</td>
                  <td>{last ? t('durationMs', { ms: last.duration_ms }) : '—'}</td>
                  <td>{delivery.status === 'pending' ? t('pending') : delivery.status === 'delivered' ? t('yes') : t('no')}</td>
                  <td>
                    <button
                      type="button"
                      className="button"
                      disabled={delivery.status === 'pending' || redeliver.isPending}
                      onClick={() => void onRedeliver(delivery.id)}
                    >
                      {redeliver.isPending && redeliver.variables?.delivery === delivery.id ? t('redelivering') : t('redeliver')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
