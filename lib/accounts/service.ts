import { newId } from '../core/ids';
import { now } from '../core/clock';
import { currencyAmount, currencyInfo } from '../core/currencies';
import { db, type Tx } from '../core/db';
import { notFound } from '../core/errors';
import { pageOf } from '../core/list';
import * as ledger from '../ledger/service';
import { fundingInstructions } from './instructions';
import * as repo from './repository';
import type { RowWrite } from '../core/sql';

// Internal accounts: held at the service, one per currency the customer (or the platform) uses.
// Their balances are read from the ledger buckets, never stored on the account.
export type InternalAccountType = 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET';

export function typeFor(currency: string): InternalAccountType {
  return currencyInfo(currency)?.crypto ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';
}

/**
 * The rows that open internal accounts, written together: each account, its ledger buckets and,
 * for an embedded wallet, its first credential (an EMAIL_OTP tied to the customer's email).
 */
function openingWrites(
  platformId: string,
  customerId: string | null,
  specs: { currency: string; type: InternalAccountType }[],
  wallet: { email: string } | null,
  at: Date,
): { rows: repo.InternalAccountRow[]; writes: RowWrite[] } {
  const rows: repo.InternalAccountRow[] = specs.map((s) => ({
    id: newId('InternalAccount'),
    platformId,
    customerId,
    type: s.type,
    status: 'ACTIVE',
    currency: s.currency,
    privateEnabled: s.type === 'EMBEDDED_WALLET' ? false : null,
    createdAt: at,
    updatedAt: at,
  }));
  const writes: RowWrite[] = [
    ...rows.map((row) => ({ table: 'InternalAccount' as const, row: { ...row } })),
    ...ledger.bucketWrites(platformId, rows, at),
  ];
  const walletRow = rows.find((r) => r.type === 'EMBEDDED_WALLET');
  if (walletRow && wallet)
    writes.push(
      emailOtpWrite({
        id: newId('AuthMethod'),
        platformId,
        accountId: walletRow.id,
        email: wallet.email,
        createdAt: at,
      }),
    );
  return { rows, writes };
}

/**
 * An Embedded Wallet opens with its first credential, an EMAIL_OTP on the holder's email (the
 * wallet's other credentials are the wallet's own business: lib/wallet-auth).
 */
function emailOtpWrite(row: {
  id: string;
  platformId: string;
  accountId: string;
  email: string;
  createdAt: Date;
}): RowWrite {
  return { table: 'AuthMethod', row: { ...row, type: 'EMAIL_OTP', nickname: row.email, updatedAt: row.createdAt } };
}

/** The platform's own holding accounts, one per supported currency (idempotent). */
export async function openPlatformAccounts(platformId: string, currencies: string[], tx: Tx) {
  const existing = new Set((await repo.platformAccounts(platformId, tx)).map((a) => a.currency));
  const missing = [...new Set(currencies)].filter((c) => !existing.has(c));
  const { rows, writes } = openingWrites(
    platformId,
    null,
    missing.map((currency) => ({ currency, type: typeFor(currency) })),
    null,
    now(),
  );
  await repo.insertWrites(writes, tx);
  return rows;
}

/**
 * Accounts opened with a new customer: one holding account per currency, and an Embedded
 * Wallet (USD) when the platform offers embedded wallets and the customer has an email, since
 * the wallet starts with one EMAIL_OTP credential tied to that email (spec, rule 4). As rows to
 * write with the customer's own (see customers/service.ts create).
 */
export function customerAccountWrites(
  platformId: string,
  customerId: string,
  currencies: string[],
  wallet: { email: string } | null,
  at: Date,
) {
  const specs: { currency: string; type: InternalAccountType }[] = [...new Set(currencies)].map((currency) => ({
    currency,
    type: typeFor(currency),
  }));
  if (wallet) specs.push({ currency: 'USD', type: 'EMBEDDED_WALLET' });
  return openingWrites(platformId, customerId, specs, wallet, at);
}

/** The same accounts opened inside a transaction (a customer's newly added currencies). */
export async function openCustomerAccounts(
  platformId: string,
  customerId: string,
  currencies: string[],
  wallet: { email: string } | null,
  tx: Tx,
) {
  const { rows, writes } = customerAccountWrites(platformId, customerId, currencies, wallet, now());
  await repo.insertWrites(writes, tx);
  return rows;
}

export function toInternalAccount(row: repo.InternalAccountRow, b: ledger.Balances) {
  return {
    id: row.id,
    ...(row.customerId ? { customerId: row.customerId } : {}),
    type: row.type,
    status: row.status,
    balance: currencyAmount(b.available, row.currency),
    totalBalance: currencyAmount(b.available + b.held + b.pending, row.currency),
    fundingPaymentInstructions:
      row.type === 'EMBEDDED_WALLET' ? [] : fundingInstructions(row.currency, row.id, row.customerId === null),
    ...(row.type === 'EMBEDDED_WALLET' ? { privateEnabled: row.privateEnabled ?? false } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type InternalAccount = ReturnType<typeof toInternalAccount>;

/** Internal accounts by id with their balances, in one query (missing ids are left out). */
export async function presentByIds(ids: string[], tx: Tx): Promise<InternalAccount[]> {
  return (await repo.withBalances(ids, tx)).map((r) =>
    toInternalAccount(r, { available: r.available ?? 0n, held: r.held ?? 0n, pending: r.pending ?? 0n }),
  );
}

export async function present(rows: repo.InternalAccountRow[], tx: Tx): Promise<InternalAccount[]> {
  const balances = await ledger.balances(
    rows.map((r) => r.id),
    tx,
  );
  return rows.map((r) => toInternalAccount(r, balances.get(r.id)!));
}

export async function get(platformId: string, id: string, tx: Tx): Promise<InternalAccount> {
  const row = await repo.findById(platformId, id, tx);
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${id}`);
  return (await present([row], tx))[0];
}

export async function list(platformId: string, filter: repo.InternalAccountFilter, limit: number, cursor?: string) {
  const listed = await repo.list(platformId, filter, { limit, cursor, filters: { ...filter } });
  const shown = listed.rows.slice(0, limit);
  const presented = new Map((await present(shown, db())).map((a) => [a.id, a]));
  return pageOf(listed, (r) => presented.get(r.id)!);
}

export const findRow = (platformId: string, id: string, tx: Tx) => repo.findById(platformId, id, tx);
export const customerAccounts = repo.forCustomer;
