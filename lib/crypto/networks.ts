// Which asset moves on which network, what a withdrawal costs on chain, and what a destination
// address looks like there. Network fees are static sandbox figures in the smallest unit of the
// network's fee token (lamports, wei, sun, satoshis): a typical token transfer at a typical gas
// price. Lightning routing fees scale with the amount (base fee plus parts per million), as
// Lightning fees do; the others are per transaction, whatever the amount.
export const CRYPTO_NETWORKS = [
  'SOLANA',
  'ETHEREUM',
  'BASE',
  'POLYGON',
  'TRON',
  'PLASMA',
  'SPARK',
  'LIGHTNING',
  'BITCOIN',
] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

export interface FeeToken {
  code: string;
  decimals: number;
}

const SOL: FeeToken = { code: 'SOL', decimals: 9 };
const ETH: FeeToken = { code: 'ETH', decimals: 18 };
const POL: FeeToken = { code: 'POL', decimals: 18 };
const TRX: FeeToken = { code: 'TRX', decimals: 6 };
const XPL: FeeToken = { code: 'XPL', decimals: 18 };
const BTC: FeeToken = { code: 'BTC', decimals: 8 };

const GWEI = 1_000_000_000n;
/** Gas an ERC-20 transfer takes. */
const ERC20_GAS = 65_000n;

interface NetworkFee {
  token: FeeToken;
  /** Network fee in the token's smallest unit for a withdrawal of `amount` (asset's smallest unit). */
  fee: (amount: bigint) => bigint;
}

const flat = (token: FeeToken, fee: bigint): NetworkFee => ({ token, fee: () => fee });

const solanaToken = flat(SOL, 5_000n + 10_000n); // signature fee + priority fee, lamports
const ethereumToken = flat(ETH, ERC20_GAS * 20n * GWEI); // 20 gwei
const baseToken = flat(ETH, ERC20_GAS * (GWEI / 20n)); // 0.05 gwei on the L2
const polygonToken = flat(POL, ERC20_GAS * 40n * GWEI); // 40 gwei
const tronToken = flat(TRX, 13_000_000n); // energy burnt for a TRC-20 transfer, sun
const plasmaToken = flat(XPL, 0n); // USDT transfers on Plasma are sponsored

/** Supported (asset, network) pairs and their fees. */
const FEES: Record<string, Partial<Record<CryptoNetwork, NetworkFee>>> = {
  USDC: { SOLANA: solanaToken, ETHEREUM: ethereumToken, BASE: baseToken, POLYGON: polygonToken },
  USDT: { ETHEREUM: ethereumToken, TRON: tronToken, SOLANA: solanaToken, POLYGON: polygonToken, PLASMA: plasmaToken },
  BTC: {
    BITCOIN: flat(BTC, 140n * 10n), // a 140 vbyte transaction at 10 sat/vB
    // 1 sat base fee + 500 ppm of the amount, rounded up.
    LIGHTNING: { token: BTC, fee: (amount) => 1n + (amount * 500n + 999_999n) / 1_000_000n },
    SPARK: flat(BTC, 0n), // Spark transfers carry no network fee
  },
};

export function networksFor(asset: string): CryptoNetwork[] {
  return Object.keys(FEES[asset] ?? {}) as CryptoNetwork[];
}

export function networkFee(asset: string, network: CryptoNetwork): NetworkFee | undefined {
  return FEES[asset]?.[network];
}

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const BECH32 = '[02-9ac-hj-np-z]';
const EVM = /^0x[0-9a-fA-F]{40}$/;
const ADDRESS: Record<CryptoNetwork, { pattern: RegExp[]; example: string }> = {
  SOLANA: { pattern: [new RegExp(`^${BASE58}{32,44}$`)], example: 'a base58 public key' },
  ETHEREUM: { pattern: [EVM], example: '0x followed by 40 hex digits' },
  BASE: { pattern: [EVM], example: '0x followed by 40 hex digits' },
  POLYGON: { pattern: [EVM], example: '0x followed by 40 hex digits' },
  PLASMA: { pattern: [EVM], example: '0x followed by 40 hex digits' },
  TRON: { pattern: [new RegExp(`^T${BASE58}{33}$`)], example: 'T followed by 33 base58 characters' },
  BITCOIN: {
    pattern: [new RegExp(`^(bc1|tb1|bcrt1)${BECH32}{8,87}$`), new RegExp(`^[123mn]${BASE58}{25,34}$`)],
    example: 'a bech32 (bc1...) or base58 (1... / 3...) address',
  },
  LIGHTNING: {
    pattern: [
      new RegExp(`^ln(bc|tb|bcrt)[0-9a-z]{20,}$`, 'i'),
      /^[a-z0-9._+-]{1,64}@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
    ],
    example: 'a BOLT11 invoice (lnbc...) or a Lightning address (name@domain)',
  },
  SPARK: { pattern: [new RegExp(`^(sp|spt|sprt)1${BECH32}{20,120}$`)], example: 'a Spark address (sp1...)' },
};

/** Undefined when `address` is a plausible destination on `network`, else what it should look like. */
export function addressProblem(network: CryptoNetwork, address: string): string | undefined {
  const rule = ADDRESS[network];
  return rule.pattern.some((p) => p.test(address))
    ? undefined
    : `is not a ${network} address: expected ${rule.example}`;
}
