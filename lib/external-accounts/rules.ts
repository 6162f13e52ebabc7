import type { z } from 'zod';
import { FIAT_CODES, currencyInfo } from '../core/currencies';
import { BANK_VARIANTS, type BankVariant } from './variants';

// What accountInfo means beyond its shape: which currency a variant carries, which rails a
// complete set of fields enables, which field names the account, and the cross-field rules the
// reference states in prose. Pure functions, shared by validation and by the service.
export type AccountInfo = { accountType: string; [k: string]: unknown };

export const WALLET_TYPES = [
  'BASE_WALLET',
  'ETHEREUM_WALLET',
  'POLYGON_WALLET',
  'PLASMA_WALLET',
  'SOLANA_WALLET',
  'SPARK_WALLET',
  'TRON_WALLET',
] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

const BY_TYPE = new Map(BANK_VARIANTS.map((v) => [v.accountType, v]));
export const bankVariant = (accountType: string): BankVariant | undefined => BY_TYPE.get(accountType);
export const isWallet = (accountType: string): accountType is WalletType =>
  (WALLET_TYPES as readonly string[]).includes(accountType);
const isFiat = (c: string) => FIAT_CODES.includes(c);
const isKnownCrypto = (c: string) => !!currencyInfo(c)?.crypto;

/** Self-custody: a wallet not held at a VASP. Only these can have their ownership verified. */
export function isSelfCustodyWallet(info: AccountInfo): boolean {
  return isWallet(info.accountType) && !info.vaspName;
}

/** Why `currency` cannot go with this variant, or null when it can. */
export function currencyProblem(accountType: string, currency: string): { message: string; allowed?: string[] } | null {
  const bank = bankVariant(accountType);
  if (bank && bank.currencies.length) {
    return bank.currencies.includes(currency)
      ? null
      : { message: `must be ${bank.currencies.join(' or ')} for ${accountType}`, allowed: bank.currencies };
  }
  if (accountType === 'SWIFT_ACCOUNT') {
    return /^[A-Z]{3}$/.test(currency) && !isKnownCrypto(currency)
      ? null
      : { message: 'must be an ISO 4217 fiat currency for SWIFT_ACCOUNT' };
  }
  if (accountType === 'LIGHTNING')
    return currency === 'BTC' ? null : { message: 'must be BTC for LIGHTNING', allowed: ['BTC'] };
  if (isWallet(accountType))
    return isFiat(currency)
      ? { message: `must be a crypto asset (such as USDC or BTC) for ${accountType}, not a fiat currency` }
      : null;
  return null;
}

const present = (info: Record<string, unknown>, field: string) =>
  info[field] !== undefined && info[field] !== null && info[field] !== '';

/** The rails a variant's given fields enable (all of them when the variant has no per-rail rule). */
export function paymentRails(info: AccountInfo): string[] {
  const v = bankVariant(info.accountType);
  if (!v) return [];
  if (!v.railFields) return v.rails;
  const beneficiary = info.beneficiary as { beneficiaryType?: string } | undefined;
  return v.rails.filter((rail) => {
    if (!v.railFields![rail].every((f) => present(info, f))) return false;
    if (info.accountType === 'INR_ACCOUNT' && rail !== 'UPI') return info.rail === rail;
    if (info.accountType === 'CNY_ACCOUNT' && rail === 'BANK_TRANSFER')
      return beneficiary?.beneficiaryType === 'BUSINESS';
    return true;
  });
}

/** The field that names the account: the first present of the variant's list. */
function primaryField(info: AccountInfo): string {
  const fields =
    bankVariant(info.accountType)?.primary ??
    (info.accountType === 'LIGHTNING' ? ['invoice', 'bolt12', 'lightningAddress'] : ['address']);
  return fields.find((f) => present(info, f)) ?? fields[0];
}

/** The value that names the account (account number, IBAN, CLABE, phone, wallet address...). */
export function primaryIdentifier(info: AccountInfo): string {
  return String(info[primaryField(info)] ?? '').trim();
}

// Fields that say which bank an account number belongs to: the same number at two banks is two
// accounts. The bank's name counts only when the variant gives no code for it.
const BANK_CODES = ['routingNumber', 'sortCode', 'bankCode', 'branchCode', 'ifsc', 'swiftCode', 'country'];
const EVM = ['BASE_WALLET', 'ETHEREUM_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET'];

/** primaryIdentifier normalized, qualified by the bank when it is a bare account number. */
export function identityKey(info: AccountInfo): string {
  const field = primaryField(info);
  const id = primaryIdentifier(info);
  if (field === 'iban') return id.replace(/\s+/g, '').toUpperCase();
  // The same address on two chains is two destinations.
  if (isWallet(info.accountType))
    return `${info.accountType}:${EVM.includes(info.accountType) ? id.toLowerCase() : id}`;
  if (field === 'lightningAddress' || field === 'vpa') return id.toLowerCase();
  if (field !== 'accountNumber') return id;
  let qualifiers = BANK_CODES.filter((q) => present(info, q));
  if (!qualifiers.length && present(info, 'bankName')) qualifiers = ['bankName'];
  return [id, ...qualifiers.map((q) => `${q}=${String(info[q]).trim().toLowerCase()}`)].join('|');
}

type Ctx = z.core.$RefinementCtx<unknown>;
const issue = (ctx: Ctx, path: (string | number)[], message: string, extra: Record<string, unknown> = {}) =>
  ctx.addIssue({ code: 'custom', path, message, ...extra });

/**
 * Cross-field rules of a create request. Runs even when other fields already failed (zod `when`),
 * so one response lists every problem; it therefore reads the raw input defensively.
 */
export function checkCreateRequest(raw: unknown, ctx: Ctx): void {
  const body = raw as { currency?: unknown; accountInfo?: unknown };
  const info = body?.accountInfo as AccountInfo | undefined;
  if (!info || typeof info !== 'object' || typeof info.accountType !== 'string') return;
  const at = ['accountInfo'];
  if (typeof body.currency === 'string') {
    const problem = currencyProblem(info.accountType, body.currency);
    if (problem)
      issue(
        ctx,
        ['currency'],
        problem.message,
        problem.allowed ? { params: { constraint: { enum: problem.allowed } } } : {},
      );
  }
  const v = bankVariant(info.accountType);
  if (v?.railFields) {
    const rails = Object.entries(v.railFields);
    if (!rails.some(([, fields]) => fields.every((f) => present(info, f)))) {
      const [rail, fields] = rails.reduce((best, r) =>
        r[1].filter((f) => !present(info, f)).length < best[1].filter((f) => !present(info, f)).length ? r : best,
      );
      const others = rails.filter(([r]) => r !== rail).map(([r, f]) => `${f.join(' + ')} for ${r}`);
      for (const f of fields.filter((f) => !present(info, f))) {
        issue(ctx, [...at, f], `is required for ${rail}${others.length ? ` (or give ${others.join(', or ')})` : ''}`);
      }
    }
  }
  if (info.accountType === 'INR_ACCOUNT' && present(info, 'rail') && !['NEFT', 'RTGS'].includes(String(info.rail))) {
    issue(ctx, [...at, 'rail'], 'must be one of NEFT, RTGS', { params: { constraint: { enum: ['NEFT', 'RTGS'] } } });
  }
  if (
    info.accountType === 'CNY_ACCOUNT' &&
    !present(info, 'phoneNumber') &&
    (info.beneficiary as { beneficiaryType?: string })?.beneficiaryType === 'INDIVIDUAL'
  ) {
    issue(
      ctx,
      [...at, 'beneficiary', 'beneficiaryType'],
      'must be BUSINESS: CNY bank transfers are business-to-business only (give phoneNumber for a mobile wallet)',
      {
        params: { constraint: { enum: ['BUSINESS'] } },
      },
    );
  }
  if (info.accountType === 'SWIFT_ACCOUNT' && !present(info, 'accountNumber') && !present(info, 'iban')) {
    issue(ctx, [...at, 'accountNumber'], 'is required unless iban is given (IBAN-only corridors use iban)');
  }
  if (info.accountType === 'LIGHTNING') {
    const given = ['invoice', 'bolt12', 'lightningAddress'].filter((f) => present(info, f));
    if (given.length !== 1) {
      issue(
        ctx,
        [...at, given[1] ?? 'invoice'],
        `exactly one of invoice, bolt12 or lightningAddress must be given (got ${given.length ? given.join(', ') : 'none'})`,
      );
    }
  }
}
