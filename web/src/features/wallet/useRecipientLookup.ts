/**
 * Who the send form's `to` reaches, asked of the server (wallet.recipient) once typing pauses, so
 * the summary can name the account before Send is pressed. Only text Send would accept is asked
 * about, and each answer is kept for the session: the lookups share an hourly budget with the
 * checkout popup's (ADR 043), and a person retyping the same name must not spend it.
 */
import { classifyRecipient } from '@quern/core/wallet';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '../../app/data/trpc.js';
import { toAppErrorView } from '../../app/appError.js';

/** Long enough that a lookup is not made per keystroke, short enough to feel live. */
export const RECIPIENT_LOOKUP_PAUSE_MS = 400;

export type RecipientView =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'user'; username: string; address: string }
  | { state: 'external'; address: string }
  | { state: 'unknown' }
  /** Send would refuse this recipient: the server's message key (an e-mail never proved). */
  | { state: 'refused'; messageKey: string }
  /** The lookup could not answer (over its budget, offline): the summary shows what was typed. */
  | { state: 'unavailable' };

function usePaused(value: string, pauseMs: number): string {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), pauseMs);
    return () => clearTimeout(timer);
  }, [value, pauseMs]);
  return paused;
}

export function useRecipientLookup(to: string): RecipientView {
  const trpc = useTRPC();
  const typed = to.trim();
  const asked = usePaused(typed, RECIPIENT_LOOKUP_PAUSE_MS);
  const askable = classifyRecipient(asked).ok;
  const answer = useQuery(
    trpc.wallet.recipient.queryOptions({ to: asked }, { enabled: askable, staleTime: Number.POSITIVE_INFINITY, retry: false }),
  );
  if (!classifyRecipient(typed).ok) return { state: 'idle' };
  if (asked !== typed || answer.isPending) return { state: 'checking' };
  if (answer.isError) {
    const view = toAppErrorView(answer.error);
    return view.code === 'VALIDATION' ? { state: 'refused', messageKey: view.fields.to ?? view.messageKey } : { state: 'unavailable' };
  }
  const found = answer.data;
  if (found.kind === 'user') return { state: 'user', username: found.username, address: found.address };
  if (found.kind === 'external') return { state: 'external', address: found.address };
  return { state: 'unknown' };
}
