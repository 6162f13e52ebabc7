// Payment rails per receiving currency: which rail pays out by default, how quickly it settles,
// and how long a quote on it may stay open. Instant rails lock a rate briefly (1-5 minutes per the
// interface); batch rails (ACH, wires, SWIFT) settle later and keep quotes open longer.
export type PaymentRail =
  | 'ACH'
  | 'ACH_COLOMBIA'
  | 'BANK_TRANSFER'
  | 'BRE_B'
  | 'CIPS'
  | 'FAST'
  | 'FASTER_PAYMENTS'
  | 'FEDNOW'
  | 'INSTAPAY'
  | 'MOBILE_MONEY'
  | 'NEFT'
  | 'PAYNOW'
  | 'PESONET'
  | 'PIX'
  | 'RTGS'
  | 'RTP'
  | 'SEPA'
  | 'SEPA_INSTANT'
  | 'SPEI'
  | 'SWIFT'
  | 'UNIONPAY'
  | 'UPI'
  | 'WIRE';

export interface RailInfo {
  rail: PaymentRail;
  instant: boolean;
  /** Typical settlement after payout starts. */
  settlementSeconds: number;
}

const R = (rail: PaymentRail, instant: boolean, settlementSeconds: number): RailInfo => ({
  rail,
  instant,
  settlementSeconds,
});

/** Rails by currency, default first. */
const RAILS: Record<string, RailInfo[]> = {
  USD: [R('RTP', true, 0), R('FEDNOW', true, 0), R('ACH', false, 86400), R('WIRE', false, 14400)],
  EUR: [R('SEPA_INSTANT', true, 0), R('SEPA', false, 86400)],
  GBP: [R('FASTER_PAYMENTS', true, 0)],
  MXN: [R('SPEI', true, 0)],
  BRL: [R('PIX', true, 0)],
  INR: [R('UPI', true, 0), R('NEFT', false, 7200), R('RTGS', false, 3600)],
  PHP: [R('INSTAPAY', true, 0), R('PESONET', false, 86400)],
  SGD: [R('FAST', true, 0), R('PAYNOW', true, 0)],
  COP: [R('BRE_B', true, 0), R('ACH_COLOMBIA', false, 86400)],
  CNY: [R('CIPS', false, 86400), R('UNIONPAY', false, 86400)],
  KES: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  GHS: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  UGX: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  TZS: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  RWF: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  MWK: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  ZMW: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  XOF: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
  XAF: [R('MOBILE_MONEY', true, 0), R('BANK_TRANSFER', false, 86400)],
};

const DEFAULT: RailInfo[] = [R('BANK_TRANSFER', false, 86400), R('SWIFT', false, 172800)];

export function railsFor(currency: string): RailInfo[] {
  return RAILS[currency] ?? DEFAULT;
}

export function defaultRail(currency: string): RailInfo {
  return railsFor(currency)[0];
}

export function railInfo(currency: string, rail: string): RailInfo | undefined {
  return [...railsFor(currency), R('SWIFT', false, 172800)].find((r) => r.rail === rail);
}

const INSTANT = new Set(
  Object.values(RAILS)
    .flat()
    .filter((r) => r.instant)
    .map((r) => r.rail),
);

/** Rails that settle as they pay (the same rail is instant in every currency that has it). */
export function isInstantRail(rail: string): boolean {
  return INSTANT.has(rail as PaymentRail);
}

/** How long a quote keeps its rate: instant rails two minutes, batch rails fifteen. */
export function quoteLifetimeSeconds(rail: RailInfo | null): number {
  return !rail || rail.instant ? 120 : 900;
}
