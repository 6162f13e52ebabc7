import { createHash } from 'node:crypto';
import { currencyInfo } from '../core/currencies';
import { base58checkEncode, base58Encode, bech32Encode, toWords } from '../core/crypto/encoding';

// Funding instructions: where money sent from outside lands in an internal account (or pays a
// quote). The sandbox bank issues each account its own virtual account numbers, derived from the
// account id so they are stable, and valid by each scheme's check digits.
function digits(seed: string, n: number): string {
  const hash = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; out.length < n; i++) out += (hash[i % hash.length] % 10).toString();
  return out;
}

/** ABA routing number: 8 digits plus the 3-7-1 weighted check digit. */
export function abaRouting(seed: string): string {
  const d = digits(`aba:${seed}`, 8).split('').map(Number);
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = d.reduce((s, x, i) => s + x * w[i], 0);
  return d.join('') + ((10 - (sum % 10)) % 10).toString();
}

/** IBAN with ISO 7064 mod-97 check digits. */
export function iban(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`.replace(/[A-Z]/g, (c) => (c.charCodeAt(0) - 55).toString());
  let rem = 0;
  for (const ch of rearranged) rem = (rem * 10 + Number(ch)) % 97;
  return `${country}${(98 - rem).toString().padStart(2, '0')}${bban}`;
}

/** Mexican CLABE: 17 digits plus the 3-7-1 weighted mod-10 control digit. */
export function clabe(seed: string): string {
  const body = `002180${digits(`clabe:${seed}`, 11)}`;
  const w = [3, 7, 1];
  const sum = body.split('').reduce((s, ch, i) => s + ((Number(ch) * w[i % 3]) % 10), 0);
  return body + ((10 - (sum % 10)) % 10).toString();
}

export function referenceCode(seed: string): string {
  return `CR${createHash('sha256').update(`ref:${seed}`).digest('hex').slice(0, 10).toUpperCase()}`;
}

export type AccountOrWalletInfo = Record<string, unknown> & { accountType: string };

// Crypto deposits: the networks each asset can be paid in on (the reference's wallet kinds and
// their asset enums), and a deposit address per network, derived from the seed like the bank
// details above and well formed for its network (checksums included). The sandbox runs on test
// networks, so Bitcoin and Spark addresses carry their test prefixes. Lightning is not offered:
// paying in needs an invoice signed by a node, which the sandbox does not run.
const DEPOSIT_NETWORKS: Record<string, string[]> = {
  USDC: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'SPARK'],
  USDT: ['SOLANA', 'ETHEREUM', 'TRON', 'PLASMA', 'SPARK'],
  BTC: ['BITCOIN', 'SPARK'],
};

/** The networks `currency` can be deposited on (empty for fiat). */
export function depositNetworks(currency: string): string[] {
  return DEPOSIT_NETWORKS[currency] ?? [];
}

const sha256 = (data: string) => createHash('sha256').update(data).digest();

function cryptoDeposit(currency: string, network: string, seed: string): AccountOrWalletInfo {
  const key = sha256(`deposit:${network}:${seed}`);
  switch (network) {
    case 'SOLANA':
      return { accountType: 'SOLANA_WALLET', address: base58Encode(key), assetType: currency };
    case 'ETHEREUM':
    case 'BASE':
    case 'POLYGON':
    case 'PLASMA':
      return {
        accountType: `${network}_WALLET`,
        address: `0x${key.subarray(0, 20).toString('hex')}`,
        assetType: currency,
      };
    case 'TRON':
      // Base58Check of 0x41 + a 20-byte account id.
      return {
        accountType: 'TRON_WALLET',
        address: base58checkEncode(Buffer.concat([Buffer.from([0x41]), key.subarray(0, 20)])),
        assetType: currency,
      };
    case 'BITCOIN':
      // Segwit v0 pay-to-witness-key-hash on testnet.
      return {
        accountType: 'BITCOIN_L1',
        address: bech32Encode('tb', [0, ...toWords(key.subarray(0, 20))]),
        network: 'BITCOIN',
      };
    default:
      return {
        accountType: 'SPARK_WALLET',
        address: bech32Encode('sprt', toWords(key.subarray(0, 33))),
        assetType: currency,
      };
  }
}

/**
 * Bank or wallet details for paying `currency` into the thing identified by `seed`. `network`
 * picks the chain for a crypto currency (one of depositNetworks; Spark when not given).
 */
export function depositDetails(currency: string, seed: string, network?: string): AccountOrWalletInfo | null {
  const reference = referenceCode(seed);
  switch (currency) {
    case 'USD':
      return {
        accountType: 'USD_ACCOUNT',
        accountNumber: digits(`acct:${seed}`, 12),
        routingNumber: abaRouting(seed),
        bankName: 'Corridor Sandbox Bank',
        bankAccountType: 'CHECKING',
        paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
        reference,
      };
    case 'EUR':
      return {
        accountType: 'EUR_ACCOUNT',
        iban: iban('DE', `37040044${digits(`iban:${seed}`, 10)}`),
        swiftCode: 'CORRDEFFXXX',
        paymentRails: ['SEPA', 'SEPA_INSTANT'],
        reference,
      };
    case 'MXN':
      return { accountType: 'MXN_ACCOUNT', clabeNumber: clabe(seed), paymentRails: ['SPEI'], reference };
    default:
      if (currencyInfo(currency)?.crypto) return cryptoDeposit(currency, network ?? 'SPARK', seed);
      return null;
  }
}

export function fundingInstructions(currency: string, accountId: string, isPlatformAccount: boolean) {
  const info = depositDetails(currency, accountId);
  if (!info) return [];
  return [
    {
      instructionsNotes:
        'reference' in info
          ? 'Include the reference code in the payment memo so the deposit is credited to this account'
          : 'Send only the listed asset to this address',
      isPlatformAccount,
      accountOrWalletInfo: info,
    },
  ];
}
