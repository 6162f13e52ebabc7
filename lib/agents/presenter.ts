import type { Tx } from '../core/db';
import { now } from '../core/clock';
import * as quotes from '../payments/quotes/repository';
import { toQuote } from '../payments/quotes/presenter';
import * as transactions from '../payments/transactions/repository';
import { toTransaction } from '../payments/transactions/presenter';
import { usageOf } from './limits';
import { policyFromJson } from './policy';
import type { ActionRow, AgentRow } from './repository';

// Agents and agent actions as the reference shapes them (Agent, AgentAction).
export async function toAgent(row: AgentRow, tx: Tx) {
  return {
    id: row.id,
    name: row.name,
    customerId: row.customerId,
    isPaused: row.isPaused,
    isConnected: row.connectedAt !== null,
    policy: policyFromJson(row.policy),
    usage: await usageOf(row.id, now(), tx),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type Agent = Awaited<ReturnType<typeof toAgent>>;

/**
 * The action with what it acts on: the quote of an EXECUTE_QUOTE, the transfer's details, and its
 * transaction, which exists from submission (PENDING while the action waits for approval).
 */
export async function toAction(row: ActionRow, tx: Tx) {
  const [quote, transaction] = await Promise.all([
    row.quoteId ? quotes.findById(row.platformId, row.quoteId, tx) : null,
    row.transactionId ? transactions.findById(row.platformId, row.transactionId, tx) : null,
  ]);
  return {
    id: row.id,
    agentId: row.agentId,
    customerId: row.customerId,
    platformCustomerId: row.platformCustomerId,
    status: row.status,
    type: row.type,
    ...(quote ? { quote: toQuote(quote) } : {}),
    ...(row.transferDetails ? { transferDetails: transferDetails(row.transferDetails) } : {}),
    ...(transaction ? { transaction: toTransaction(transaction) } : {}),
    ...(row.status === 'REJECTED' && row.rejectionReason ? { rejectionReason: row.rejectionReason } : {}),
    ...(row.status === 'FAILED' && row.failureReason ? { failureReason: row.failureReason } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type AgentAction = Awaited<ReturnType<typeof toAction>>;

function transferDetails(j: unknown) {
  const d = j as { amount: string; currency: string; sourceAccountId: string; destinationAccountId: string };
  return { ...d, amount: BigInt(d.amount) };
}
