import type { z } from 'zod';
import type { Actor } from '../core/context';
import { now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { conflict, notFound } from '../core/errors';
import { effect, Refusal } from '../core/idempotency';
import { newId } from '../core/ids';
import { recordEvent } from '../events/outbox';
import * as customers from '../customers/repository';
import * as transfers from '../payments/transfers/service';
import type { transferIn as transferInSchema, transferOut as transferOutSchema } from '../payments/transfers/schema';
import { executeLocked, lockForExecution, type WalletSignatureCheck } from '../payments/quotes/execute';
import * as quotes from '../payments/quotes/repository';
import * as txRepo from '../payments/transactions/repository';
import { callingAgent } from './auth';
import { reserve, release, type Reservation } from './limits';
import { decide, forbidden, policyFromJson, requirePermission, type Facts } from './policy';
import { toAction } from './presenter';
import * as repo from './repository';
import { ownAccount } from './scope';

// What an agent does with money: transfer-out, transfer-in, quote execution. Each runs the SAME
// payments code the platform's routes run, inside one transaction with the agent's policy around
// it: the agent's row as of now (paused, deleted or changed: refused), the account and
// per-transaction checks, the daily and monthly counters raised atomically, then either the
// operation itself (AUTO) or its transaction stored PENDING for the platform's approval.
type TransferOut = z.output<typeof transferOutSchema>;
type TransferIn = z.output<typeof transferInSchema>;

interface Verdict {
  hold: boolean;
  reservation: Reservation;
}

/** The policy decision inside `tx`, on the agent's row as it is now (locked against changes). */
async function judge(tx: Tx, agentId: string, permission: 'CREATE_TRANSFERS' | 'EXECUTE_QUOTES', facts: Facts) {
  const agent = await repo.lockAgent(agentId, tx);
  if (!agent || !agent.tokenHash) throw forbidden('The agent was deleted', { reason: 'AGENT_DELETED' });
  if (agent.isPaused) throw forbidden(`Agent ${agentId} is paused`, { reason: 'AGENT_PAUSED' });
  const policy = policyFromJson(agent.policy);
  requirePermission(policy, permission);
  const at = now();
  const { hold, policyAmount } = decide(policy, facts, at);
  return { hold, reservation: await reserve(agentId, policy, policyAmount, at, tx) };
}

/** Stores the action for a submitted operation; one waiting for approval is announced (AGENT_ACTION). */
async function recordAction(
  tx: Tx,
  agent: { id: string; platformId: string; customerId: string },
  a: {
    type: 'EXECUTE_QUOTE' | 'TRANSFER_OUT' | 'TRANSFER_IN';
    verdict: Verdict;
    transactionId: string;
    transactionStatus: string;
    quoteId?: string;
    details?: object;
  },
) {
  const customer = await customers.findById(agent.platformId, agent.customerId, tx);
  const failed = a.transactionStatus === 'FAILED';
  // A transfer the sandbox fails at once moved nothing: its counting is given back.
  if (failed) await release(agent.id, a.verdict.reservation, tx);
  const at = now();
  const row = await repo.insertAction(
    {
      id: newId('AgentAction'),
      platformId: agent.platformId,
      agentId: agent.id,
      customerId: agent.customerId,
      platformCustomerId: customer?.platformCustomerId ?? agent.customerId,
      status: failed ? 'FAILED' : a.verdict.hold ? 'PENDING_APPROVAL' : 'APPROVED',
      type: a.type,
      quoteId: a.quoteId ?? null,
      transactionId: a.transactionId,
      transferDetails: a.details ?? undefined,
      usage: failed ? undefined : (a.verdict.reservation as object),
      failureReason: failed ? 'The transaction failed at once' : null,
      createdAt: at,
      updatedAt: at,
    },
    tx,
  );
  const action = await toAction(row, tx);
  if (row.status === 'PENDING_APPROVAL')
    await recordEvent(tx, agent.platformId, 'AGENT_ACTION.PENDING_APPROVAL', action);
  return action;
}

function gateFor(agentId: string, out: { verdict?: Verdict }): transfers.TransferGate {
  return async (tx, facts) => {
    out.verdict = await judge(tx, agentId, 'CREATE_TRANSFERS', facts);
    return out.verdict.hold ? 'HOLD' : 'RUN';
  };
}

export async function transferOut(actor: Actor, req: TransferOut) {
  const agent = await callingAgent(actor);
  requirePermission(policyFromJson(agent.policy), 'CREATE_TRANSFERS');
  await ownAccount(agent, req.source.accountId, 'internal', 'source.accountId');
  await ownAccount(agent, req.destination.accountId, 'external', 'destination.accountId');
  return effect(async (tx) => {
    const out: { verdict?: Verdict } = {};
    const t = await transfers.transferOutWithin(tx, agent.platformId, req, {
      gate: gateFor(agent.id, out),
      agentId: agent.id,
    });
    return recordAction(tx, agent, {
      type: 'TRANSFER_OUT',
      verdict: out.verdict!,
      transactionId: t.id,
      transactionStatus: t.status,
      details: details(t.sentAmount, req.source.accountId, req.destination.accountId),
    });
  });
}

export async function transferIn(actor: Actor, req: TransferIn) {
  const agent = await callingAgent(actor);
  requirePermission(policyFromJson(agent.policy), 'CREATE_TRANSFERS');
  await ownAccount(agent, req.source.accountId, 'external', 'source.accountId');
  await ownAccount(agent, req.destination.accountId, 'internal', 'destination.accountId');
  return effect(async (tx) => {
    const out: { verdict?: Verdict } = {};
    const t = await transfers.transferInWithin(tx, agent.platformId, req, {
      gate: gateFor(agent.id, out),
      agentId: agent.id,
    });
    return recordAction(tx, agent, {
      type: 'TRANSFER_IN',
      verdict: out.verdict!,
      transactionId: t.id,
      transactionStatus: t.status,
      details: details(t.receivedAmount, req.source.accountId, req.destination.accountId),
    });
  });
}

function details(amount: unknown, sourceAccountId: string, destinationAccountId: string) {
  const a = amount as { amount: bigint; currency: { code: string } };
  return { amount: a.amount.toString(), currency: a.currency.code, sourceAccountId, destinationAccountId };
}

/** A quote this agent created (by its transaction), else 404 as for any quote not its own. */
export async function ownQuote(agent: { id: string; platformId: string }, quoteId: string) {
  const quote = await quotes.findById(agent.platformId, quoteId, db());
  const t = quote && (await txRepo.findById(agent.platformId, quote.transactionId, db()));
  if (!quote || !t || t.agentId !== agent.id) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
  return quote;
}

/** POST /agents/me/quotes/{quoteId}/execute: executed now (AUTO) or held for the platform. */
export async function executeQuote(actor: Actor, quoteId: string, walletCheck: WalletSignatureCheck) {
  const agent = await callingAgent(actor);
  requirePermission(policyFromJson(agent.policy), 'EXECUTE_QUOTES');
  await ownQuote(agent, quoteId);
  return effect(async (tx) => {
    const found = await lockForExecution(tx, agent.platformId, quoteId, walletCheck);
    if (found instanceof Refusal) return found;
    const { quote, transaction, sourceAccount } = found;
    if (transaction.awaitingApproval || (await repo.findActionByTransaction(agent.platformId, transaction.id, tx)))
      throw conflict(`Quote ${quoteId} was already submitted for execution`, { status: quote.status });
    const verdict = await judge(tx, agent.id, 'EXECUTE_QUOTES', {
      amount: quote.totalSending,
      currency: quote.sendingCurrency,
      internalAccountId: quote.sourceAccountId ?? quote.destinationAccountId ?? '',
    });
    if (verdict.hold) await txRepo.update(transaction.id, { awaitingApproval: true, updatedAt: now() }, tx);
    else await executeLocked(tx, quote, transaction, sourceAccount);
    return recordAction(tx, agent, {
      type: 'EXECUTE_QUOTE',
      verdict,
      transactionId: transaction.id,
      transactionStatus: transaction.status,
      quoteId,
    });
  });
}
