import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58Encode } from '@/lib/core/crypto/encoding';
import { bitcoinMessageHash } from './signatures';

// Test support: one valid create body per accountType (identifier ending in `sfx`, which drives the
// sandbox name check), and for each variant a break of its key identifier rule with the field that
// must be reported.
export const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
export const individual = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  countryOfResidence: 'GB',
  phoneNumber: '+447700900123',
  address,
};
export const business = {
  beneficiaryType: 'BUSINESS',
  legalName: 'Acme Trading Ltd',
  registrationNumber: 'REG-1',
  address,
};

type Info = Record<string, unknown>;
const digits = (n: number, sfx: string) => `${'1234567890123456789012345678901234'.slice(0, n - sfx.length)}${sfx}`;

const bank = (ccy: string, fields: (sfx: string) => Info, beneficiary: Info = individual) => ({
  accountType: `${ccy}_ACCOUNT`,
  currency: ccy,
  info: (sfx: string) => ({ accountType: `${ccy}_ACCOUNT`, ...fields(sfx), beneficiary }),
});
const mobile = (ccy: string, prefix: string, extra: Info = {}) =>
  bank(ccy, (s) => ({
    phoneNumber: `${prefix}${digits(12 - prefix.length + 1, s)}`,
    provider: 'Mobile Money Co',
    ...extra,
  }));

export interface Sample {
  accountType: string;
  currency: string;
  info: (sfx: string) => Info;
}

export const SAMPLES: Sample[] = [
  bank('AED', (s) => ({ iban: `AE${digits(21, s)}`, swiftCode: 'EBILAEAD' })),
  bank('BDT', (s) => ({ accountNumber: digits(12, s), bankName: 'Sonali Bank', branchCode: '12345' })),
  bank('BRL', (s) => ({ pixKey: `ada${s}@example.com`, pixKeyType: 'EMAIL', taxId: '12345678901' })),
  mobile('BWP', '+267'),
  bank('CAD', (s) => ({ bankCode: '001', branchCode: '00011', accountNumber: digits(9, s) })),
  bank('CNY', (s) => ({ accountNumber: digits(16, s), bankName: 'Bank of China' }), business),
  bank('COP', (s) => ({ accountNumber: digits(11, s), bankAccountType: 'SAVINGS', bankName: 'Bancolombia' })),
  bank('DKK', (s) => ({ iban: `DK${digits(16, s)}` })),
  bank('EGP', (s) => ({ iban: `EG${digits(27, s)}`, bankName: 'National Bank of Egypt' })),
  bank('EUR', (s) => ({ iban: `DE89${digits(18, s)}`, swiftCode: 'DEUTDEFF' })),
  bank('GBP', (s) => ({ sortCode: '040004', accountNumber: digits(8, s) })),
  bank('GHS', (s) => ({ accountNumber: digits(13, s), bankName: 'GCB Bank' })),
  bank('GTQ', (s) => ({ accountNumber: digits(10, s), bankAccountType: 'CHECKING', bankName: 'Banco Industrial' })),
  bank('HKD', (s) => ({ bankName: 'HSBC', accountNumber: digits(12, s), swiftCode: 'HSBCHKHH' })),
  bank('HTG', (s) => ({ phoneNumber: `+509${digits(8, s)}` })),
  bank('IDR', (s) => ({
    bankName: 'Bank Mandiri',
    accountNumber: digits(13, s),
    swiftCode: 'BMRIIDJA',
    phoneNumber: `+62${digits(10, s)}`,
  })),
  bank('INR', (s) => ({ accountNumber: digits(12, s), ifsc: 'HDFC0001234', rail: 'NEFT', bankName: 'HDFC Bank' })),
  bank('JMD', (s) => ({
    accountNumber: digits(10, s),
    branchCode: '12345',
    bankAccountType: 'SAVINGS',
    bankName: 'NCB Jamaica',
  })),
  mobile('KES', '+254'),
  mobile('MWK', '+265'),
  bank('MXN', (s) => ({ clabeNumber: digits(18, s) })),
  bank('MYR', (s) => ({ bankName: 'Maybank', accountNumber: digits(12, s), swiftCode: 'MBBEMYKL' })),
  bank('NGN', (s) => ({ accountNumber: digits(10, s), bankName: 'Access Bank' })),
  bank('PHP', (s) => ({ bankName: 'BDO Unibank', accountNumber: digits(12, s) })),
  bank('PKR', (s) => ({ bankName: 'Habib Bank', accountNumber: digits(14, s) })),
  mobile('RWF', '+250'),
  bank('SGD', (s) => ({ accountNumber: digits(10, s), swiftCode: 'DBSSSGSG' })),
  bank('SLV', (s) => ({ accountNumber: digits(10, s), bankAccountType: 'CHECKING', bankName: 'Banco Cuscatlan' })),
  bank('THB', (s) => ({ bankName: 'Bangkok Bank', accountNumber: digits(10, s), swiftCode: 'BKKBTHBK' })),
  mobile('TZS', '+255'),
  mobile('UGX', '+256'),
  bank('USD', (s) => ({
    accountNumber: digits(11, s),
    routingNumber: '021000021',
    bankAccountType: 'CHECKING',
    bankName: 'Chase Bank',
  })),
  bank('VND', (s) => ({ bankName: 'Vietcombank', accountNumber: digits(13, s), swiftCode: 'BFTVVNVX' })),
  mobile('XAF', '+237', { region: 'CM' }),
  mobile('XOF', '+221', { region: 'SN' }),
  bank('ZAR', (s) => ({ accountNumber: digits(11, s), bankName: 'Standard Bank' })),
  mobile('ZMW', '+260'),
  {
    accountType: 'SWIFT_ACCOUNT',
    currency: 'JPY',
    info: (s) => ({
      accountType: 'SWIFT_ACCOUNT',
      country: 'JP',
      swiftCode: 'MHCBJPJT',
      bankName: 'Mizuho',
      accountNumber: digits(10, s),
      beneficiary: individual,
    }),
  },
  ...['BASE_WALLET', 'ETHEREUM_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET'].map((t) => ({
    accountType: t,
    currency: 'USDC',
    info: (s: string) => ({
      accountType: t,
      address: `0x${'abcdef0123456789abcdef0123456789abcdef01'.slice(0, 40 - s.length)}${s}`,
    }),
  })),
  {
    accountType: 'SOLANA_WALLET',
    currency: 'USDC',
    info: (s) => ({ accountType: 'SOLANA_WALLET', address: `7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFL${s}` }),
  },
  {
    accountType: 'SPARK_WALLET',
    currency: 'BTC',
    info: (s) => ({
      accountType: 'SPARK_WALLET',
      address: `spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6m${s}`,
    }),
  },
  {
    accountType: 'TRON_WALLET',
    currency: 'USDT',
    info: (s) => ({ accountType: 'TRON_WALLET', address: `TLa2f6VPqDgRE67v1736s7bJ8Ray5wY${s}` }),
  },
  {
    accountType: 'LIGHTNING',
    currency: 'BTC',
    info: (s) => ({ accountType: 'LIGHTNING', lightningAddress: `ada${s}@wallet.example.com` }),
  },
];

/** Per accountType: how to break its key identifier rule, and the field the 400 must name. */
export const KEY_RULE_BREAKS: Record<string, { change: (info: Info) => Info; field: string }> = {};
const brk = (types: string[], field: string, change: (info: Info) => Info) =>
  types.forEach((t) => (KEY_RULE_BREAKS[t] = { change, field: `accountInfo.${field}` }));
const set = (k: string, v: unknown) => (info: Info) => ({ ...info, [k]: v });
const drop =
  (...keys: string[]) =>
  (info: Info) =>
    Object.fromEntries(Object.entries(info).filter(([k]) => !keys.includes(k)));

brk(['AED_ACCOUNT'], 'iban', set('iban', 'DE89370400440532013000'));
brk(['DKK_ACCOUNT'], 'iban', set('iban', 'DK12345'));
brk(['EUR_ACCOUNT'], 'iban', set('iban', 'de89370400440532013000'));
brk(['EGP_ACCOUNT'], 'iban', set('iban', 'EG12'));
brk(['BDT_ACCOUNT', 'GHS_ACCOUNT', 'PKR_ACCOUNT'], 'accountNumber', drop('accountNumber'));
brk(['CNY_ACCOUNT'], 'beneficiary.beneficiaryType', set('beneficiary', individual));
brk(['COP_ACCOUNT'], 'bankAccountType', drop('bankAccountType'));
brk(['SLV_ACCOUNT'], 'accountNumber', drop('accountNumber'));
brk(['BRL_ACCOUNT'], 'pixKeyType', set('pixKeyType', 'IBAN'));
brk(
  ['BWP_ACCOUNT', 'MWK_ACCOUNT', 'UGX_ACCOUNT', 'XAF_ACCOUNT', 'XOF_ACCOUNT', 'HTG_ACCOUNT'],
  'phoneNumber',
  set('phoneNumber', '0712345678'),
);
brk(['KES_ACCOUNT'], 'phoneNumber', set('phoneNumber', '+255712345678'));
brk(['RWF_ACCOUNT'], 'phoneNumber', set('phoneNumber', '+254712345678'));
brk(['TZS_ACCOUNT'], 'phoneNumber', set('phoneNumber', '+254712345678'));
brk(['ZMW_ACCOUNT'], 'phoneNumber', set('phoneNumber', '+254712345678'));
brk(['IDR_ACCOUNT'], 'phoneNumber', set('phoneNumber', '+6512345678'));
brk(['CAD_ACCOUNT'], 'accountNumber', set('accountNumber', '12345'));
brk(['GBP_ACCOUNT'], 'sortCode', set('sortCode', '04-00-04'));
brk(
  [
    'GTQ_ACCOUNT',
    'HKD_ACCOUNT',
    'MYR_ACCOUNT',
    'THB_ACCOUNT',
    'VND_ACCOUNT',
    'SGD_ACCOUNT',
    'USD_ACCOUNT',
    'JMD_ACCOUNT',
  ],
  'accountNumber',
  drop('accountNumber'),
);
brk(['INR_ACCOUNT'], 'ifsc', set('ifsc', 'HDFC1001234'));
brk(['MXN_ACCOUNT'], 'clabeNumber', set('clabeNumber', '12345678901234567'));
brk(['NGN_ACCOUNT'], 'accountNumber', set('accountNumber', '123456789'));
brk(['PHP_ACCOUNT'], 'accountNumber', set('accountNumber', '1234567'));
brk(['ZAR_ACCOUNT'], 'accountNumber', set('accountNumber', '12345678'));
brk(['SWIFT_ACCOUNT'], 'accountNumber', drop('accountNumber'));
brk(
  ['BASE_WALLET', 'ETHEREUM_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET', 'SOLANA_WALLET', 'SPARK_WALLET', 'TRON_WALLET'],
  'address',
  drop('address'),
);
brk(['LIGHTNING'], 'invoice', drop('lightningAddress'));

export const sample = (type: string) => SAMPLES.find((s) => s.accountType === type)!;
export const usdInfo = (sfx: string, extra: Record<string, unknown> = {}) => ({
  ...sample('USD_ACCOUNT').info(sfx),
  ...extra,
});

// Wallets with real keys: each chain's own message-signing format, checked against the address.
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const utf8 = (s: string) => new TextEncoder().encode(s);
const cat = (...p: Uint8Array[]) => Uint8Array.from(p.flatMap((x) => [...x]));

/** Sign `hash` → [recid, r, s]. */
const signRecovered = (hash: Uint8Array, sk: Uint8Array) =>
  secp256k1.sign(hash, sk, { prehash: false, format: 'recovered' });

export function evmWallet() {
  const sk = secp256k1.utils.randomSecretKey();
  const address = `0x${hex(keccak_256(secp256k1.getPublicKey(sk, false).subarray(1)).subarray(12))}`;
  const sign = (message: string) => {
    const body = utf8(message);
    const sig = signRecovered(keccak_256(cat(utf8(`\x19Ethereum Signed Message:\n${body.length}`), body)), sk);
    return `0x${hex(sig.subarray(1))}${(27 + sig[0]).toString(16)}`;
  };
  return { address, sign };
}

export function tronWallet() {
  const sk = secp256k1.utils.randomSecretKey();
  const payload = cat(Uint8Array.of(0x41), keccak_256(secp256k1.getPublicKey(sk, false).subarray(1)).subarray(12));
  const address = base58Encode(cat(payload, sha256(sha256(payload)).subarray(0, 4)));
  const sign = (message: string) => {
    const body = utf8(message);
    const sig = signRecovered(keccak_256(cat(utf8(`\x19TRON Signed Message:\n${body.length}`), body)), sk);
    return `0x${hex(sig.subarray(1))}${(27 + sig[0]).toString(16)}`;
  };
  return { address, sign };
}

export function solanaWallet() {
  const sk = ed25519.utils.randomSecretKey();
  return {
    address: base58Encode(ed25519.getPublicKey(sk)),
    sign: (message: string) => base58Encode(ed25519.sign(utf8(message), sk)),
  };
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function bech32m(hrp: string, data: Uint8Array): string {
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of data) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >> bits) & 31);
    }
  }
  if (bits) words.push((acc << (5 - bits)) & 31);
  const G = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  const polymod = (v: number[]) =>
    v.reduce((chk, x) => {
      const top = chk >>> 25;
      chk = ((chk & 0x1ffffff) << 5) ^ x;
      for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= G[i];
      return chk >>> 0;
    }, 1);
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = polymod([...expanded, ...words, 0, 0, 0, 0, 0, 0]) ^ 0x2bc830a3;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => BECH32[w]).join('')}`;
}

export function sparkWallet() {
  const sk = secp256k1.utils.randomSecretKey();
  const address = bech32m('spark', cat(Uint8Array.of(0x0a, 33), secp256k1.getPublicKey(sk, true)));
  const sign = (message: string) => {
    const sig = signRecovered(bitcoinMessageHash(message), sk);
    return Buffer.from(cat(Uint8Array.of(31 + sig[0]), sig.subarray(1))).toString('base64');
  };
  return { address, sign };
}
