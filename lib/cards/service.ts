import type { z } from 'zod';
import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { effect } from '../core/idempotency';
import { DomainError, fieldError, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import { seal } from '../core/crypto/vault';
import { recordEvent } from '../events/outbox';
import { enqueue } from '../jobs/queue';
import * as accounts from '../accounts/service';
import * as customers from '../customers/repository';
import * as repo from './repository';
import { toCard, toCardTransaction } from './presenter';
import { cardProcessor } from './processor';
import { moveTo, type CardState } from './state';
import { expireOpenAuthorizations } from './reconcile';
import type { cardCreateRequest, cardUpdateRequest } from './schema';

// Issuing cards and the platform's changes to them: state (ACTIVE ⇄ FROZEN, → CLOSED), funding
// sources and the per-transaction limit. Every change is one guarded UPDATE and records its
// webhook in the same transaction.
type CreateRequest = z.output<typeof cardCreateRequest>;
type UpdateRequest = z.output<typeof cardUpdateRequest>;

export const PROVISION_JOB = 'card.provision';
export const sealPurpose = (cardId: string, what: 'pan' | 'cvv') => `card:${what}:${cardId}`;

const ineligible = (accountId: string, why: string) =>
  new DomainError('INVALID_INPUT', `Funding source ${accountId} is not eligible: ${why}`, {
    reason: 'FUNDING_SOURCE_INELIGIBLE',
    accountId,
  });

/**
 * Checks a funding-source list: each the cardholder's active fiat internal account, no repeats,
 * one currency (the card's, when it has one). Returns that currency.
 */
async function checkFunding(
  platformId: string,
  cardholderId: string,
  ids: string[],
  cardCurrency: string | null,
  tx: Tx,
): Promise<string> {
  if (new Set(ids).size !== ids.length) throw fieldError('fundingSources', 'must not name an account twice');
  let currency = cardCurrency;
  for (const id of ids) {
    const a = await accounts.findRow(platformId, id, tx);
    if (!a || a.customerId !== cardholderId) throw ineligible(id, 'it is not an internal account of the cardholder');
    if (a.type !== 'INTERNAL_FIAT') throw ineligible(id, `${a.type} accounts cannot fund cards`);
    if (a.status !== 'ACTIVE') throw ineligible(id, `it is ${a.status}`);
    if (currency && a.currency !== currency)
      throw ineligible(id, `it holds ${a.currency} and the card's funding sources hold ${currency}`);
    currency = a.currency;
  }
  return currency!;
}

export async function issue(platformId: string, req: CreateRequest) {
  return effect(async (tx) => {
    const holder = await customers.findById(platformId, req.cardholderId, tx);
    if (!holder || holder.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${req.cardholderId}`);
    if (holder.kycStatus !== 'APPROVED')
      throw new DomainError(
        'CARDHOLDER_KYC_NOT_APPROVED',
        `Customer ${holder.id} cannot hold a card until KYC is APPROVED (it is ${holder.kycStatus ?? holder.kybStatus})`,
      );
    const currency = await checkFunding(platformId, holder.id, req.fundingSources, null, tx);
    const id = newId('Card');
    const at = now();
    const platformCardId = req.platformCardId ?? id.slice('Card:'.length);
    const processor = cardProcessor.get();
    const issued = processor.issue({ platformCardId, currency, at });
    // The 3-D Secure password is forwarded to the issuer and never kept (reference).
    const row = await repo.insertCard(
      {
        id,
        platformId,
        cardholderId: holder.id,
        platformCardId,
        state: 'PROCESSING',
        stateReason: null,
        brand: issued.brand,
        form: req.form,
        last4: issued.pan.slice(-4),
        expMonth: issued.expMonth,
        expYear: issued.expYear,
        fundingSources: req.fundingSources,
        maxSpendPerTransaction: req.maxSpendPerTransaction ?? null,
        currency,
        processorRef: issued.processorRef,
        issuerRef: issued.issuerRef,
        panSealed: seal(issued.pan, sealPurpose(id, 'pan')),
        cvvSealed: seal(issued.cvv, sealPurpose(id, 'cvv')),
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    await enqueue(tx, {
      platformId,
      kind: PROVISION_JOB,
      payload: { cardId: id },
      runAt: addSeconds(at, processor.provisioningSeconds),
    });
    return toCard(row);
  });
}

/** Job: the issuer finished provisioning; PROCESSING → ACTIVE, or CLOSED with ISSUER_REJECTED. */
export async function provisionJob(payload: unknown): Promise<void> {
  const { cardId } = payload as { cardId: string };
  await transaction(async (tx) => {
    const card = await repo.findCardUnscoped(cardId, tx);
    if (!card || card.state !== 'PROCESSING') return;
    const outcome = cardProcessor.get().provisioningOutcome({ platformCardId: card.platformCardId });
    const moved =
      outcome === 'ACTIVE'
        ? await repo.moveCard(card.id, 'activate', { updatedAt: now() }, tx)
        : await repo.moveCard(card.id, 'reject', { stateReason: 'ISSUER_REJECTED', updatedAt: now() }, tx);
    if (moved) await recordEvent(tx, moved.platformId, 'CARD.STATE_CHANGE', toCard(moved));
  });
}

export async function get(platformId: string, id: string) {
  const row = await repo.findCard(platformId, id, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Card ${id}`);
  return toCard(row);
}

export async function list(
  platformId: string,
  filter: repo.CardFilter,
  limit: number,
  order: 'asc' | 'desc',
  cursor?: string,
) {
  return pageOf(await repo.listCards(platformId, filter, { limit, cursor, order, filters: { ...filter } }), toCard);
}

/**
 * The refusal for a change the card's current state does not allow (spec: Card `state`): CLOSED
 * asked of a CLOSED card is CARD_ALREADY_CLOSED; any other state asked that no move reaches
 * (un-freezing a CLOSED card included, as the reference's example says) INVALID_STATE_TRANSITION;
 * a change of funding sources or limit on a CLOSED card CARD_NOT_MUTABLE.
 */
function refusal(card: { id: string; state: string }, requested: UpdateRequest['state']): DomainError {
  if (card.state === 'CLOSED' && requested === 'CLOSED')
    return new DomainError('CARD_ALREADY_CLOSED', `Card ${card.id} is already CLOSED`);
  if (requested)
    return new DomainError(
      'INVALID_STATE_TRANSITION',
      `Card ${card.id} cannot move from ${card.state} to ${requested}: allowed are ACTIVE ⇄ FROZEN and ACTIVE | FROZEN → CLOSED`,
      { state: card.state, requestedState: requested },
    );
  return new DomainError('CARD_NOT_MUTABLE', `Card ${card.id} is CLOSED and can no longer be changed`);
}

export async function update(platformId: string, id: string, req: UpdateRequest) {
  const sources = req.fundingSources;
  const limitGiven = req.maxSpendPerTransaction !== undefined;
  if (req.state === undefined && !sources && !limitGiven)
    throw fieldError('state', 'give at least one of state, fundingSources or maxSpendPerTransaction');
  if (req.state === 'CLOSED' && (sources || limitGiven))
    throw fieldError('state', 'CLOSED cannot be combined with fundingSources or maxSpendPerTransaction');
  return effect(async (tx) => {
    const card = await repo.findCard(platformId, id, tx);
    if (!card) throw notFound('REFERENCE_NOT_FOUND', `Card ${id}`);
    const move = req.state ? moveTo(card.state as CardState, req.state) : null;
    if ((req.state && !move) || card.state === 'CLOSED') throw refusal(card, req.state);
    if (sources) await checkFunding(platformId, card.cardholderId, sources, card.currency, tx);
    const at = now();
    const data = {
      updatedAt: at,
      ...(sources ? { fundingSources: sources } : {}),
      ...(limitGiven ? { maxSpendPerTransaction: req.maxSpendPerTransaction } : {}),
      ...(move === 'close' ? { stateReason: 'CLOSED_BY_PLATFORM' } : {}),
    };
    // Guarded in the database: a concurrent change that moved the card first makes this match nothing.
    const updated = move ? await repo.moveCard(id, move, data, tx) : await repo.updateOpenCard(id, data, tx);
    if (!updated) throw refusal((await repo.findCard(platformId, id, tx)) ?? card, req.state);
    if (move === 'close') await expireOpenAuthorizations(tx, updated);
    if (move) await recordEvent(tx, platformId, 'CARD.STATE_CHANGE', toCard(updated));
    if (sources) await recordEvent(tx, platformId, 'CARD.FUNDING_SOURCE_CHANGE', toCard(updated));
    return toCard(updated);
  });
}

/** A card's transactions, newest first (the console's card page). */
export async function transactionsOf(platformId: string, cardId: string, limit = 50) {
  return (await repo.transactionsOfCard(platformId, cardId, limit)).map(toCardTransaction);
}

/** The processor's events on a card, newest first: approvals and declines (the console's card page). */
export async function processorEventsOf(platformId: string, cardId: string, limit = 50) {
  const rows = await repo.eventsOfCard(platformId, cardId, limit);
  return rows.map((e) => ({
    id: e.id,
    kind: e.kind,
    amount: e.amount,
    outcome: e.outcome,
    declineReason: e.declineReason,
    cardTransactionId: e.cardTransactionId,
    issuerTransactionToken: e.issuerTransactionToken,
    createdAt: e.createdAt,
  }));
}
