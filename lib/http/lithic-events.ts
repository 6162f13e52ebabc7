import { applyTransactionUpdate, transactionUpdateOf } from '../cards/lithic-events';
import { lithicAsa } from '../cards/lithic';
import { lithicAnswer, lithicRefusal, signedBody } from './lithic-asa';

// POST /cards/lithic/events (app/cards/lithic/events/route.ts): Lithic's event subscription
// posts card_transaction.updated — the Transaction object with every event so far — signed
// with the subscription's own secret (CORRIDOR_LITHIC_EVENTS_SECRET). Lithic retries anything
// but a 2xx for about a day, so every verified body Corridor can read is acknowledged with 200
// and what became of each event ({token, events: [{token, type, outcome, reason?}]}), including
// a transaction Corridor does not know ({ignored}); only what no retry can change otherwise — no
// connection configured (404), a bad signature (401), a body that is not a transaction (400) —
// is refused, and a failure of Corridor's own (500) is left for Lithic's retry to bring again.
export async function lithicEventsAnswer(req: Request): Promise<Response> {
  const config = lithicAsa.get()?.events;
  if (!config)
    return lithicRefusal(
      404,
      'NOT_FOUND',
      'No Lithic transaction events are configured (CORRIDOR_LITHIC_ASA_SECRET and CORRIDOR_LITHIC_EVENTS_SECRET)',
    );
  const text = await signedBody(req, config);
  if (typeof text !== 'string') return text;
  const update = transactionUpdateOf(text);
  if ('error' in update) return lithicRefusal(400, 'INVALID_INPUT', update.error);
  if ('ignore' in update) return lithicAnswer(200, { ignored: update.ignore, events: [] });
  return lithicAnswer(200, await applyTransactionUpdate(update));
}
