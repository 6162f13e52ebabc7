import { DomainError, invalidInput } from '../core/errors';
import { minorRate, reduce, toSignificant, type Rational } from './rates';

// Quote pricing with exact integer arithmetic. All amounts are in smallest units; fees are taken
// in the sending currency before conversion; a counterparty's fixed fee is in the receiving
// currency. Rounding always favours neither side silently: receiving amounts round down (the
// service never promises more than it converts), sending amounts round up.
export interface FeeSchedule {
  /** Service fee: fixed (sending minor units) and variable (basis points of the sending amount). */
  serviceFixed: bigint;
  serviceBps: bigint;
  /** Platform-collected fee, part of the total fees. */
  platformFixed: bigint;
  platformBps: bigint;
  /** Counterparty institution's fixed fee, receiving minor units. */
  counterpartyFixed: bigint;
}

export interface Priced {
  totalSending: bigint;
  totalReceiving: bigint;
  serviceFee: bigint;
  serviceVariableFee: bigint;
  platformFee: bigint;
  /** Sending amount left after fees, converted to the receiving currency. */
  netSending: bigint;
  /** Sending major units per receiving major unit, as the interface defines exchangeRate. */
  exchangeRate: number;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** The fees a total sending amount carries under a schedule (floor of the variable parts). */
export function feesFor(sending: bigint, f: FeeSchedule) {
  const serviceVariable = (sending * f.serviceBps) / 10_000n;
  const platformVariable = (sending * f.platformBps) / 10_000n;
  return { service: f.serviceFixed + serviceVariable, serviceVariable, platform: f.platformFixed + platformVariable };
}

function convert(netSending: bigint, rateMinor: Rational): bigint {
  return (netSending * rateMinor.num) / rateMinor.den;
}

/**
 * Prices a transfer. `rate` is receiving major units per sending major unit.
 * SENDING lock: `amount` is the total debited; RECEIVING lock: `amount` is what arrives.
 */
export function price(p: {
  from: string;
  to: string;
  rate: Rational;
  side: 'SENDING' | 'RECEIVING';
  amount: bigint;
  fees: FeeSchedule;
}): Priced {
  const rateMinor = minorRate(p.from, p.to, p.rate);
  let totalSending: bigint;
  if (p.side === 'SENDING') {
    totalSending = p.amount;
  } else {
    // Smallest net sending amount that converts to at least amount + counterparty fee...
    const needNet = ceilDiv((p.amount + p.fees.counterpartyFixed) * rateMinor.den, rateMinor.num);
    // ...and the smallest total whose fees leave that net. Start from the closed form, then
    // step to the exact minimum (floor rounding of variable fees makes the closed form close).
    const bps = p.fees.serviceBps + p.fees.platformBps;
    if (bps >= 10_000n) throw invalidInput('Fees consume the whole amount');
    totalSending = ceilDiv((needNet + p.fees.serviceFixed + p.fees.platformFixed) * 10_000n, 10_000n - bps);
    const net = (s: bigint) => {
      const fee = feesFor(s, p.fees);
      return s - fee.service - fee.platform;
    };
    while (totalSending > 1n && net(totalSending - 1n) >= needNet) totalSending--;
    while (net(totalSending) < needNet) totalSending++;
  }
  const fee = feesFor(totalSending, p.fees);
  const netSending = totalSending - fee.service - fee.platform;
  const totalReceiving = p.side === 'RECEIVING' ? p.amount : convert(netSending, rateMinor) - p.fees.counterpartyFixed;
  if (netSending <= 0n || totalReceiving <= 0n) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', 'The amount is too small to cover the fees of this transfer', {
      totalSending,
      fees: fee.service + fee.platform,
    });
  }
  return {
    totalSending,
    totalReceiving,
    serviceFee: fee.service,
    serviceVariableFee: fee.serviceVariable,
    platformFee: fee.platform,
    netSending,
    exchangeRate: exchangeRateOf(p.rate),
  };
}

/** The interface's exchangeRate: sending major units per receiving major unit (1 / rate). */
export function exchangeRateOf(rate: Rational): number {
  const inverse = reduce({ num: rate.den, den: rate.num });
  return toSignificant(inverse);
}
