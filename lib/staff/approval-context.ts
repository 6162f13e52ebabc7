import type { Tx } from '../core/db';
import * as accounts from '../accounts/repository';
import * as customers from '../customers/repository';
import * as external from '../external-accounts/repository';
import { beneficiaryName, type Beneficiary } from '../external-accounts/beneficiary';
import { holdReasons, type HoldReason } from '../agents/policy';
import type { Agent, AgentAction } from '../agents/presenter';

// What staff need beside an agent action held for approval to decide on it without opening five
// pages: who the customer is and where their KYC stands, what the agent did lately, both sides
// of the money with the rate, who is paid and where, why the policy held it, and when a quote
// behind it expires. A read for the console's approvals queue (lib/agents/approvals lists the
// actions; this explains each).

export interface Party {
  /** A person's or business's name, or a description of the account ("USD account of Ada Lovelace"). */
  name: string;
  id: string;
  /** For an external account: the bank or the network that carries the payment. */
  bank?: string;
  network?: string;
  country?: string;
  umaAddress?: string;
}

export interface RecentAction {
  id: string;
  type: string;
  status: string;
  createdAt: Date;
  amount?: bigint;
  currency?: string;
}

export interface ApprovalContext {
  customer: { id: string; name: string; platformCustomerId: string; kind: string; verification: string };
  source?: Party;
  payee?: Party;
  sending?: { amount: bigint; currency: string };
  receiving?: { amount: bigint; currency: string };
  /** Sending major units per receiving major unit (the quote's exchangeRate). */
  exchangeRate?: number;
  expiresAt?: Date;
  held: HoldReason[];
  recent: RecentAction[];
}

type Json = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

export function customerName(row: customers.CustomerRow | null): string | null {
  if (!row) return null;
  if (row.fullName) return row.fullName;
  const business = obj(obj(row.profile).businessInfo);
  return str(business.legalName) ?? str(business.doingBusinessAs) ?? null;
}

/** An external account's payee as staff read it: beneficiary, bank, rail and country. */
export function payeeOf(row: external.ExternalAccountRow): Party {
  const info = obj(row.accountInfo);
  const b = obj(info.beneficiary);
  const rails = Array.isArray(info.paymentRails) ? info.paymentRails.filter((r) => typeof r === 'string') : [];
  const address = obj(b.address);
  return {
    id: row.id,
    name:
      beneficiaryName(b as unknown as Beneficiary) ??
      row.beneficiaryVerifiedName ??
      `${row.currency} account ending ${row.primaryIdentifier.slice(-4)}`,
    bank: str(info.bankName),
    network: rails.length ? rails.join(', ') : (str(info.cryptoNetwork) ?? str(info.network) ?? row.accountType),
    country:
      str(b.countryOfResidence) ?? str(address.country) ?? str(info.bankCountry) ?? str(info.country) ?? undefined,
  };
}

async function partyOf(platformId: string, id: string | undefined, tx: Tx): Promise<Party | undefined> {
  if (!id) return undefined;
  const ext = await external.findLiveAny(platformId, id, tx);
  if (ext) return payeeOf(ext);
  const internal = await accounts.findById(platformId, id, tx);
  if (!internal) return { id, name: 'Account no longer available' };
  const owner = internal.customerId
    ? customerName(await customers.findById(platformId, internal.customerId, tx))
    : null;
  return {
    id,
    name: `${internal.currency} account of ${owner ?? (internal.customerId ? 'the customer' : 'the platform')}`,
  };
}

async function recentOf(platformId: string, agentId: string, except: string, tx: Tx): Promise<RecentAction[]> {
  const rows = await tx.agentAction.findMany({
    where: { platformId, agentId, id: { not: except } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 5,
  });
  const quoteIds = rows.flatMap((r) => (r.quoteId ? [r.quoteId] : []));
  const quotes = quoteIds.length
    ? await tx.quote.findMany({
        where: { platformId, id: { in: quoteIds } },
        select: { id: true, totalSending: true, sendingCurrency: true },
      })
    : [];
  const quoteOf = new Map(quotes.map((q) => [q.id, q]));
  return rows.map((r) => {
    const q = r.quoteId ? quoteOf.get(r.quoteId) : undefined;
    const t = r.transferDetails ? obj(r.transferDetails) : null;
    const money = q
      ? { amount: q.totalSending, currency: q.sendingCurrency }
      : t && str(t.amount) && str(t.currency)
        ? { amount: BigInt(str(t.amount)!), currency: str(t.currency)! }
        : {};
    return { id: r.id, type: r.type, status: r.status, createdAt: r.createdAt, ...money };
  });
}

export async function approvalContext(
  platformId: string,
  action: AgentAction,
  agent: Agent,
  at: Date,
  tx: Tx,
): Promise<ApprovalContext> {
  const customerRow = await customers.findById(platformId, action.customerId, tx);
  const customer = {
    id: action.customerId,
    name: customerName(customerRow) ?? action.platformCustomerId ?? action.customerId,
    platformCustomerId: action.platformCustomerId ?? '',
    kind: customerRow?.customerType ?? 'INDIVIDUAL',
    verification:
      (customerRow?.customerType === 'BUSINESS' ? customerRow.kybStatus : customerRow?.kycStatus) ?? 'UNVERIFIED',
  };
  const recent = await recentOf(platformId, agent.id, action.id, tx);
  const q = action.quote;
  if (q) {
    const dest = obj(q.destination);
    const src = obj(q.source);
    const uma = str(dest.umaAddress);
    const payee: Party | undefined = uma
      ? { id: uma, name: str(obj(q.counterpartyInformation).fullName) ?? uma, umaAddress: uma }
      : await partyOf(platformId, str(dest.accountId), tx);
    const source = await partyOf(platformId, str(src.accountId), tx);
    const sending = { amount: q.totalSendingAmount, currency: q.sendingCurrency.code };
    return {
      customer,
      source,
      payee,
      sending,
      receiving: { amount: q.totalReceivingAmount, currency: q.receivingCurrency.code },
      exchangeRate: q.exchangeRate,
      expiresAt: new Date(q.expiresAt),
      held: heldFor(agent, { ...sending, internalAccountId: str(src.accountId) ?? '' }, at),
      recent,
    };
  }
  const t = action.transferDetails;
  if (!t) return { customer, held: [], recent };
  const [source, payee] = await Promise.all([
    partyOf(platformId, t.sourceAccountId, tx),
    partyOf(platformId, t.destinationAccountId, tx),
  ]);
  const money = { amount: t.amount, currency: t.currency };
  // A pull (TRANSFER_IN) lands in the internal account; the limits count that account.
  const internalAccountId = action.type === 'TRANSFER_IN' ? t.destinationAccountId : t.sourceAccountId;
  return {
    customer,
    source,
    payee,
    sending: money,
    receiving: money,
    held: heldFor(agent, { ...money, internalAccountId }, at),
    recent,
  };
}

function heldFor(agent: Agent, facts: { amount: bigint; currency: string; internalAccountId: string }, at: Date) {
  try {
    return holdReasons(agent.policy, facts, at);
  } catch {
    // No rate to convert into the threshold's currency: the reason cannot be measured, not invented.
    return [];
  }
}
