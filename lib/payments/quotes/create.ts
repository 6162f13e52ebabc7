import { effect, effectWrite } from '../../core/idempotency';
import { newId } from '../../core/ids';
import { addSeconds, now } from '../../core/clock';
import { db, type Tx } from '../../core/db';
import { DomainError, fieldError, invalidInput } from '../../core/errors';
import { eventRow } from '../../events/outbox';
import { isScaRegion } from '../../customers/regions';
import { requireVerified } from '../../customers/kyc';
import { midRate } from '../../fx/rates';
import { price } from '../../fx/pricing';
import { feeSchedule } from '../../fx/fees';
import { quoteLifetimeSeconds, railInfo } from '../../rails/catalog';
import type { TransactionRow } from '../transactions/repository';
import type { InternalAccountRow } from '../../accounts/repository';
import { toTransaction } from '../transactions/presenter';
import { checkOwnershipThreshold } from '../routing';
import { mergeFields, missingPayerData, requiredPayerData } from '../payer-data';
import * as repo from './repository';
import type { QuoteRow } from './repository';
import { toQuote, type Quote, type ScaState } from './presenter';
import { challengeFor, issueScaCode, sendScaCode } from './sca';
import type { QuoteRequest } from './schema';
import { checkLimits } from '../limits';
import { resolveDestination, resolveSource, type Destination, type Source } from './resolve';
import { quoteRows } from './rows';
import { executeLocked, remember } from './execute';

// POST /quotes: resolve source and destination, price the transfer with exact integers, check
// limits and payer data, then store the quote, its PENDING transaction and the event in one
// statement (no transaction needed). With immediatelyExecute, creation and execution share one
// database transaction, so a refused execution leaves no quote behind.
interface Prepared {
  transaction: TransactionRow;
  quote: QuoteRow;
  event: ReturnType<typeof eventRow>;
  status: 201 | 202;
  /** Strong Customer Authentication: the number the code goes to (the code is issued with the quote). */
  sms: { to: string } | null;
  /** The source internal account as read (null for real-time funding), for its balance event. */
  sourceAccount: InternalAccountRow | null;
}

/** Refusals that depend only on the request and the resolved source and destination. */
function checkRoute(req: QuoteRequest, source: Source, route: Destination['route']): void {
  if (req.immediatelyExecute && source.embeddedWallet) {
    throw fieldError(
      'immediatelyExecute',
      'not supported for an EMBEDDED_WALLET source: create the quote, then execute it with the wallet signature over its payloadToSign',
    );
  }
  if (req.immediatelyExecute && source.realtime) {
    throw fieldError(
      'immediatelyExecute',
      'only for internal-account and direct-pull sources: a real-time-funding quote executes when its funds arrive',
    );
  }
  const receiving = route.currency;
  if (route.kind === 'INTERNAL' && route.internalAccountId === source.internalAccountId)
    throw new DomainError('SELF_PAYMENT', 'Source and destination are the same account');
  if (route.kind === 'EXTERNAL' && receiving === source.currency && !source.realtime && !source.pull) {
    throw invalidInput(`Source and destination are both ${receiving}: use a transfer out for same-currency transfers`);
  }
  if (source.pull && receiving === source.currency) {
    throw invalidInput(
      `Source and destination are both ${receiving}: pull into an internal account with a transfer in for same-currency transfers`,
    );
  }
  if (req.platformFeeOverride) {
    if (source.currency !== 'USD')
      throw fieldError('platformFeeOverride', 'platformFeeOverride is only supported when the source currency is USD');
    if (req.platformFeeOverride.platformFixedFee.currency !== source.currency) {
      throw fieldError(
        'platformFeeOverride.platformFixedFee.currency',
        `must be the source currency ${source.currency}`,
      );
    }
  }
}

/** What the named lookup listed and what the chosen corridor needs now (settings may have changed since). */
async function checkPayerData(req: QuoteRequest, destination: Destination, tx: Tx): Promise<void> {
  const missing = missingPayerData(
    mergeFields([destination.lookupFields, await requiredPayerData(destination.route, tx)]),
    req.senderCustomerInfo,
  );
  if (missing.length) {
    throw new DomainError(
      'MISSING_MANDATORY_USER_INFO',
      `The receiving institution requires: ${missing.map((m) => m.field).join(', ')}`,
      { errors: missing },
    );
  }
}

/**
 * Strong Customer Authentication of a real-time-funded payment of a customer in an SCA region:
 * the challenge (its factor chosen from the customer's enrolled ones, lib/sca) bound to this quote.
 */
async function scaOf(
  req: QuoteRequest,
  source: Source,
  expiresAt: Date,
  quoteId: string,
  totalSending: bigint,
  tx: Tx,
) {
  const customer = source.customer;
  if (!(source.realtime && customer && isScaRegion(customer.region))) return null;
  return challengeFor(
    customer,
    req.scaFactor,
    expiresAt,
    {
      quoteId,
      amount: `${totalSending} ${source.currency}`,
      destination: JSON.stringify(req.destination),
    },
    tx,
  );
}

async function prepare(platformId: string, req: QuoteRequest, opts: { agentId?: string }, tx: Tx): Promise<Prepared> {
  const at = now();
  const source = await resolveSource(platformId, req.source, tx);
  if (source.customer) requireVerified(source.customer);
  const destination = await resolveDestination(platformId, req, source, tx);
  const { route } = destination;
  checkRoute(req, source, route);
  await checkPayerData(req, destination, tx);
  const snapshot = midRate(source.currency, route.currency, at);
  const fees = await feeSchedule({ platformId, from: source.currency, at, override: req.platformFeeOverride }, tx);
  const priced = price({
    from: source.currency,
    to: route.currency,
    rate: snapshot.rate,
    side: req.lockedCurrencySide,
    amount: req.lockedCurrencyAmount,
    fees,
  });
  await checkLimits(platformId, source.currency, route.currency, priced.totalSending, priced.totalReceiving, tx);
  checkOwnershipThreshold(route, priced.totalReceiving, at);
  const rail = route.kind === 'EXTERNAL' ? (railInfo(route.currency, route.rail) ?? null) : null;
  const expiresAt = addSeconds(at, quoteLifetimeSeconds(rail));
  const quoteId = newId('Quote');
  const sca: ScaState | null = await scaOf(req, source, expiresAt, quoteId, priced.totalSending, tx);
  const { transaction, quote } = quoteRows({
    platformId,
    quoteId,
    req,
    source,
    destination,
    snapshot,
    fees,
    priced,
    rail,
    sca,
    expiresAt,
    at,
    agentId: opts.agentId,
  });
  const event = eventRow(
    platformId,
    sca ? 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION' : 'OUTGOING_PAYMENT.PENDING',
    toTransaction(transaction),
    at,
  );
  return {
    transaction,
    quote,
    event,
    status: sca ? 202 : 201,
    sms: sca?.factor === 'SMS_OTP' ? { to: source.customer!.phoneNumber! } : null,
    sourceAccount: source.account,
  };
}

export async function createQuote(
  platformId: string,
  req: QuoteRequest,
  opts: { agentId?: string } = {},
): Promise<{ quote: Quote; status: 201 | 202 }> {
  if (req.scaFactor === 'TOTP') {
    throw fieldError(
      'scaFactor',
      'TOTP cannot carry the dynamic linking a payment authorization needs; use SMS_OTP or PASSKEY',
      { enum: ['SMS_OTP', 'PASSKEY'] },
    );
  }
  if (req.immediatelyExecute) {
    return effect(async (tx) => {
      const p = await prepare(platformId, req, opts, tx);
      await repo.insertWithTransaction(p, tx);
      return { quote: await executeLocked(tx, p.quote, p.transaction, p.sourceAccount), status: 201 as const };
    });
  }
  // Reads, then one write: nothing to hold open.
  const p = await prepare(platformId, req, opts, db());
  if (p.sms) {
    // Strong Customer Authentication: the quote and its code commit together, then the code is sent.
    const sms = p.sms;
    const { issued, ...result } = await effect(async (tx) => {
      await repo.insertWithTransaction(p, tx);
      const code = await issueScaCode(tx, platformId, p.quote.id, p.quote.expiresAt);
      return { quote: toQuote(p.quote), status: p.status, issued: code };
    });
    await sendScaCode(platformId, sms.to, issued.code);
    return result;
  }
  const result = await effectWrite({ quote: toQuote(p.quote), status: p.status }, (tx) =>
    repo.insertWithTransaction(p, tx),
  );
  if (p.quote.status === 'PENDING' && p.sourceAccount)
    remember({ quote: p.quote, transaction: p.transaction, sourceAccount: p.sourceAccount });
  return result;
}
