import { addSeconds, now } from '../core/clock';
import { effect } from '../core/idempotency';
import { DomainError, fieldError, notFound } from '../core/errors';
import * as ledger from '../ledger/service';
import { recordEvent } from '../events/outbox';
import { enqueue } from '../jobs/queue';
import * as quotes from '../payments/quotes/repository';
import * as txRepo from '../payments/transactions/repository';
import { toTransaction } from '../payments/transactions/presenter';
import { planOf } from '../payments/plan';
import { failPayout } from '../payments/settlement';
import { refundedFailure } from '../payments/steps';
import { payoutDelay, type PayoutScenario } from '../payments/scenarios';

// POST /sandbox/send: the sender pays a real-time-funding quote's instructions. The funds arrive
// from the outside world into CLEARING, and the payment proceeds as if the rail had delivered
// them. A wrong amount fails the payment with FUNDING_AMOUNT_MISMATCH and sends the funds back.
export async function sandboxSend(
  platformId: string,
  req: { quoteId: string; currencyCode: string; currencyAmount?: bigint },
) {
  return effect(async (tx) => {
    const quote = await quotes.lock(platformId, req.quoteId, tx);
    if (!quote) throw notFound('QUOTE_NOT_FOUND', `Quote ${req.quoteId}`);
    if ((quote.source as { sourceType: string }).sourceType !== 'REALTIME_FUNDING') {
      throw fieldError('quoteId', 'this quote is funded from an account: execute the quote instead');
    }
    if (quote.status === 'PENDING_AUTHORIZATION')
      throw new DomainError(
        'INVALID_INPUT',
        'The quote awaits Strong Customer Authentication: authorize it before paying it',
      );
    if (quote.status !== 'PENDING')
      throw new DomainError('INVALID_INPUT', `The quote is ${quote.status} and accepts no payment`);
    if (quote.expiresAt <= now())
      throw new DomainError(
        'INVALID_INPUT',
        `The quote expired at ${quote.expiresAt.toISOString()}; its payment instructions are no longer valid`,
      );
    if (req.currencyCode !== quote.sendingCurrency)
      throw fieldError('currencyCode', `must be the quote's sending currency ${quote.sendingCurrency}`);
    const amount = req.currencyAmount ?? quote.totalSending;
    const row = (await txRepo.findByIdUnscoped(quote.transactionId, tx))!;
    const { funding } = planOf(row);
    const rail = funding.kind === 'CLEARING' ? funding.rail : 'RTP';
    const at = now();
    // The funds arrive, whatever the amount: they are then paid on or sent back.
    await ledger.post(tx, {
      platformId,
      kind: 'FUNDING_RECEIVED',
      transactionId: row.id,
      legs: [
        {
          account: ledger.systemAccount(platformId, `WORLD:${rail}`, quote.sendingCurrency),
          currency: quote.sendingCurrency,
          amount: -amount,
        },
        {
          account: ledger.systemAccount(platformId, 'CLEARING', quote.sendingCurrency),
          currency: quote.sendingCurrency,
          amount,
        },
      ],
    });
    const started = await txRepo.transition(
      row.id,
      'start',
      {
        updatedAt: at,
        ...(amount !== quote.totalSending ? { sentAmount: amount } : {}),
        expectedSettlementAt: addSeconds(at, payoutDelay(row.scenario as PayoutScenario)),
      },
      tx,
    );
    await quotes.move(quote.id, 'execute', { executedAt: at, updatedAt: at }, tx);
    await recordEvent(tx, platformId, 'OUTGOING_PAYMENT.PROCESSING', toTransaction(started!));
    if (amount !== quote.totalSending) {
      // Refund exactly what arrived (the transaction's sentAmount now says so).
      const failed = await failPayout(tx, started!, refundedFailure('FUNDING_AMOUNT_MISMATCH'));
      return toTransaction(failed!);
    }
    await enqueue(tx, {
      platformId,
      kind: 'payment.settle',
      payload: { transactionId: row.id },
      runAt: started!.expectedSettlementAt ?? at,
    });
    return toTransaction(started!);
  });
}
