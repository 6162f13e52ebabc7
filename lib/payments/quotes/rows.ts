import { newId } from '../../core/ids';
import { referenceCode } from '../../accounts/instructions';
import type { Priced, FeeSchedule } from '../../fx/pricing';
import type { RateSnapshot } from '../../fx/rates';
import type { railInfo } from '../../rails/catalog';
import type { TransactionRow } from '../transactions/repository';
import { requireUma } from '../uma/address';
import type { QuoteRow } from './repository';
import type { ScaState } from './presenter';
import type { QuoteRequest } from './schema';
import { rateDetailsFor, walletPayload, type Destination, type Source } from './resolve';

// The rows a new quote writes: the quote and its PENDING (or PENDING_AUTHORIZATION) transaction,
// built from what prepare() resolved and priced. No reads, no checks: those happened before.

export interface QuoteInputs {
  platformId: string;
  quoteId: string;
  req: QuoteRequest;
  source: Source;
  destination: Destination;
  snapshot: RateSnapshot;
  fees: FeeSchedule;
  priced: Priced;
  rail: ReturnType<typeof railInfo> | null;
  sca: ScaState | null;
  expiresAt: Date;
  at: Date;
  agentId?: string;
}

const jsonOf = <T>(v: T) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

/** The request's destination and source as the quote and transaction show them. */
function wireShapes(req: QuoteRequest, source: Source, receiving: string) {
  const destination =
    req.destination.destinationType === 'ACCOUNT'
      ? {
          destinationType: 'ACCOUNT',
          accountId: req.destination.accountId,
          ...(req.destination.paymentRail ? { paymentRail: req.destination.paymentRail } : {}),
        }
      : {
          destinationType: 'UMA_ADDRESS',
          umaAddress: requireUma(req.destination.umaAddress).address,
          currency: receiving,
        };
  const sourceJson =
    req.source.sourceType === 'ACCOUNT'
      ? {
          sourceType: 'ACCOUNT',
          accountId: req.source.accountId,
          ...(source.customerId ? { customerId: source.customerId } : {}),
        }
      : {
          sourceType: 'REALTIME_FUNDING',
          currency: source.currency,
          ...(source.customerId ? { customerId: source.customerId } : {}),
          ...(req.source.cryptoNetwork ? { cryptoNetwork: req.source.cryptoNetwork } : {}),
        };
  return { destination, sourceJson };
}

export function quoteRows(i: QuoteInputs): { transaction: TransactionRow; quote: QuoteRow } {
  const { req, source, priced, rail, at } = i;
  const { route } = i.destination;
  const receiving = route.currency;
  const { quoteId } = i;
  const transactionId = newId('Transaction');
  const { destination, sourceJson } = wireShapes(req, source, receiving);
  const rateDetails = jsonOf(
    rateDetailsFor(source.currency, receiving, at, i.fees.serviceFixed, i.fees.serviceBps, priced.serviceVariableFee),
  );
  const initial = i.sca ? 'PENDING_AUTHORIZATION' : 'PENDING';
  const railSelectionMode = route.kind === 'EXTERNAL' ? route.railSelection : null;
  const shared = {
    platformId: i.platformId,
    customerId: source.customerId,
    status: initial,
    destination,
    receivedCurrency: receiving,
    exchangeRate: priced.exchangeRate,
    rateDetails,
    paymentRail: rail?.rail ?? null,
    railSelectionMode,
    description: req.description ?? null,
    remittanceInformation: req.remittanceInformation ?? null,
    counterpartyInformation: null,
    createdAt: at,
    updatedAt: at,
  };
  const transaction = transactionRow(i, { ...shared, id: transactionId, quoteId, sourceJson });
  const { receivedCurrency: _received, ...quoteShared } = shared;
  const quote: QuoteRow = {
    ...quoteShared,
    id: quoteId,
    source: sourceJson,
    sourceAccountId: source.internalAccountId,
    destinationAccountId: req.destination.destinationType === 'ACCOUNT' ? req.destination.accountId : null,
    sendingCurrency: source.currency,
    receivingCurrency: receiving,
    lockedSide: req.lockedCurrencySide,
    lockedAmount: req.lockedCurrencyAmount,
    totalSending: priced.totalSending,
    totalReceiving: priced.totalReceiving,
    serviceFee: priced.serviceFee,
    platformFee: priced.platformFee,
    netSending: priced.netSending,
    rateNum: i.snapshot.rate.num,
    rateDen: i.snapshot.rate.den,
    rateProvider: i.snapshot.provider,
    rateAsOf: i.snapshot.updatedAt,
    rateExpiresAt: i.snapshot.expiresAt,
    lookupId: i.destination.lookupId,
    route: jsonOf(route),
    purposeOfPayment: req.purposeOfPayment ?? null,
    senderCustomerInfo: (req.senderCustomerInfo as QuoteRow['senderCustomerInfo']) ?? null,
    payloadToSign: source.embeddedWallet ? walletPayload(quoteId, source, req, priced.totalSending, i.expiresAt) : null,
    scaChallenge: (i.sca as QuoteRow['scaChallenge']) ?? null,
    transactionId,
    expiresAt: i.expiresAt,
    executedAt: null,
  };
  return { transaction, quote };
}

function transactionRow(
  i: QuoteInputs,
  t: {
    id: string;
    quoteId: string;
    sourceJson: Record<string, string>;
    status: string;
    destination: TransactionRow['destination'];
  } & Pick<
    TransactionRow,
    | 'platformId'
    | 'customerId'
    | 'receivedCurrency'
    | 'exchangeRate'
    | 'rateDetails'
    | 'paymentRail'
    | 'railSelectionMode'
    | 'description'
    | 'remittanceInformation'
    | 'counterpartyInformation'
    | 'createdAt'
    | 'updatedAt'
  >,
): TransactionRow {
  const { source, priced, rail } = i;
  const { route } = i.destination;
  const { sourceJson, ...rest } = t;
  return {
    ...rest,
    platformCustomerId: source.customer?.platformCustomerId ?? null,
    type: 'OUTGOING',
    direction: 'DEBIT',
    pendingReason: null,
    railStatus: null,
    railNote: null,
    collectedAt: null,
    pullReturnedAt: null,
    refundAttempt: 1,
    awaitingApproval: false,
    approvalDeadline: null,
    source: { ...sourceJson, currency: source.currency },
    internalAccountId: source.internalAccountId,
    // The destination's external account, else a pull source's (either finds it by account).
    externalAccountId: route.kind === 'EXTERNAL' ? route.externalAccountId : (source.pull?.externalAccountId ?? null),
    sentCurrency: source.currency,
    sentAmount: priced.totalSending,
    receivedAmount: priced.totalReceiving,
    fees: priced.serviceFee + priced.platformFee,
    platformFees: priced.platformFee,
    expectedSettlementAt: null,
    settlementTimelineSeconds: rail ? rail.settlementSeconds : null,
    failureReason: null,
    refund: null,
    // The same code a real-time-funding quote's payment instructions carry, so the deposit and
    // the transaction reconcile by it.
    reference: referenceCode(t.quoteId),
    platformReason: null,
    // A pull that fails decides before the payout's own outcome can matter. With a real rail
    // (production) a pull-funded payment has no script whatever its destination: the rail's
    // report on the pull decides (rail-collect.ts), even for a payout to an internal account,
    // which would otherwise complete on its own without the money ever being collected.
    scenario:
      source.pull && !source.pull.scripted
        ? null
        : (source.pull?.scenario ?? ('scenario' in route ? route.scenario : 'SUCCESS')),
    plan: jsonOf({ funding: source.funding, route }),
    settledAt: null,
    receiptDeliveryConfirmedAt: null,
    agentId: i.agentId ?? null,
  };
}
