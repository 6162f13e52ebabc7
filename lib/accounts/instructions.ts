import { createHash } from 'node:crypto';
import { currencyInfo } from '../currencies';

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

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

// Bech32 (BIP 173): 5-bit groups with a 6-character BCH checksum over the human-readable part.
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i];
  }
  return chk >>> 0;
}
function bech32(hrp: string, data: number[]): string {
  const expanded = [...hrp].map((c) => c.charCodeAt(0) >> 5).concat([0], [...hrp].map((c) => c.charCodeAt(0) & 31));
  const mod = polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join('')}`;
}
function fiveBit(bytes: Buffer): number[] {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) out.push((acc << (5 - bits)) & 31);
  return out;
}

function cryptoDeposit(currency: string, network: string, seed: string): AccountOrWalletInfo {
  const key = sha256(`deposit:${network}:${seed}`);
  switch (network) {
    case 'SOLANA':
      return { accountType: 'SOLANA_WALLET', address: base58(key), assetType: currency };
    case 'ETHEREUM':
    case 'BASE':
    case 'POLYGON':
    case 'PLASMA':
      return { accountType: `${network}_WALLET`, address: `0x${key.subarray(0, 20).toString('hex')}`, assetType: currency };
    case 'TRON': {
      // Base58Check of 0x41 + a 20-byte account id.
      const payload = Buffer.concat([Buffer.from([0x41]), key.subarray(0, 20)]);
      return { accountType: 'TRON_WALLET', address: base58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)])), assetType: currency };
    }
    case 'BITCOIN':
      // Segwit v0 pay-to-witness-key-hash on testnet.
      return { accountType: 'BITCOIN_L1', address: bech32('tb', [0, ...fiveBit(key.subarray(0, 20))]), network: 'BITCOIN' };
    default:
      return { accountType: 'SPARK_WALLET', address: bech32('sprt', fiveBit(key.subarray(0, 33))), assetType: currency };
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
        'reference' in info ? 'Include the reference code in the payment memo so the deposit is credited to this account' : 'Send only the listed asset to this address',
      isPlatformAccount,
      accountOrWalletInfo: info,
    },
  ];
}
