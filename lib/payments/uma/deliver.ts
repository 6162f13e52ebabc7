import { referenceCode } from '../../accounts/instructions';
import { newId } from '../../core/ids';
import { now } from '../../core/clock';
import type { Tx } from '../../core/db';
import * as ledger from '../../ledger/service';
import { recordEvent } from '../../events/outbox';
import * as customers from '../../customers/repository';
import * as platforms from '../../platform/repository';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import { announceBalances } from '../balances';
import type { Route } from '../routing';

// Incoming UMA payments to customers of this service: from another customer of the service
// (settled inside it) or from the sandbox senders. The money enters the receiving platform's
// ledger from its WORLD:UMA account and lands in the customer's deposit target: their default UMA
// deposit external account (passed on to their bank) or their internal account.
export interface IncomingUma {
  platformId: string;
  customerId: string;
  senderUmaAddress: string;
  receiverUmaAddress: string;
  currency: string;
  amount: bigint;
  internalAccountId: string | null;
  externalAccountId: string | null;
  /** The sender's transaction, for counterparty information. */
  counterpartyTransactionId?: string;
}

function depositAccount(p: IncomingUma): string {
  return p.internalAccountId
    ? ledger.bucketAccount(p.internalAccountId, 'AVAILABLE')
    : ledger.systemAccount(p.platformId, 'WORLD:BANK_TRANSFER', p.currency);
}

/** The INCOMING transaction of a payment booked at once (no PENDING row was created first). */
async function insertIncoming(tx: Tx, p: IncomingUma, at: Date): Promise<txRepo.TransactionRow> {
  const customer = await customers.findById(p.platformId, p.customerId, tx);
  const id = newId('Transaction');
  return txRepo.insert(
    {
      id,
      platformId: p.platformId,
      customerId: p.customerId,
      platformCustomerId: customer?.platformCustomerId ?? null,
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'PROCESSING',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: p.senderUmaAddress, currency: p.currency },
      destination: {
        destinationType: 'ACCOUNT',
        accountId: p.internalAccountId ?? p.externalAccountId,
        currency: p.currency,
      },
      internalAccountId: p.internalAccountId,
      externalAccountId: p.externalAccountId,
      receivedCurrency: p.currency,
      receivedAmount: p.amount,
      fees: 0n,
      counterpartyInformation: { umaAddress: p.senderUmaAddress },
      // Reference: incoming transactions carry reconciliationInstructions once past CREATED.
      reference: referenceCode(id),
      createdAt: at,
      updatedAt: at,
    },
    tx,
  );
}

/** Books an incoming UMA payment that is complete (funds received and deposited). */
export async function creditIncoming(
  tx: Tx,
  p: IncomingUma,
  existing?: txRepo.TransactionRow,
): Promise<txRepo.TransactionRow> {
  const at = now();
  const row = existing ?? (await insertIncoming(tx, p, at));
  const done = await txRepo.transition(row.id, 'complete', { settledAt: at, updatedAt: at }, tx);
  if (!done) return row;
  await ledger.post(tx, {
    platformId: p.platformId,
    kind: 'UMA_RECEIVE',
    transactionId: done.id,
    legs: [
      { account: ledger.systemAccount(p.platformId, 'WORLD:UMA', p.currency), currency: p.currency, amount: -p.amount },
      { account: depositAccount(p), currency: p.currency, amount: p.amount },
    ],
  });
  await recordEvent(tx, p.platformId, 'INCOMING_PAYMENT.COMPLETED', toTransaction(done));
  if (p.internalAccountId) await announceBalances(tx, p.platformId, [p.internalAccountId]);
  return done;
}

/** The receiving side of a completed payment from one customer of this service to another. */
export async function deliverUmaPayment(
  tx: Tx,
  sent: txRepo.TransactionRow,
  route: Extract<Route, { kind: 'UMA_CUSTOMER' }>,
) {
  const sender = sent.customerId ? await customers.findById(sent.platformId, sent.customerId, tx) : null;
  const platform = sender ? null : await platforms.findById(sent.platformId, tx);
  const senderUma = sender?.umaAddress ?? `$platform@${platform?.umaDomain ?? 'unknown'}`;
  await creditIncoming(tx, {
    platformId: route.platformId,
    customerId: route.customerId,
    senderUmaAddress: senderUma,
    receiverUmaAddress: route.umaAddress,
    currency: sent.receivedCurrency!,
    amount: sent.receivedAmount!,
    internalAccountId: route.internalAccountId,
    externalAccountId: route.externalAccountId,
    counterpartyTransactionId: sent.id,
  });
}
