import * as accounts from '../accounts/service';
import { now } from '../core/clock';
import { currencyInfo } from '../core/currencies';
import { DomainError, fieldError, invalidInput, notFound, type FieldError } from '../core/errors';
import { midRate } from '../fx/rates';
import {
  addressProblem,
  CRYPTO_NETWORKS,
  networkFee,
  networksFor,
  type CryptoNetwork,
  type FeeToken,
} from './networks';
import type { EstimateWithdrawalFeeRequest } from './schema';
import { db } from '@/lib/core/db';

// Withdrawal fee estimate for a crypto internal account: the on-chain fee in the network's own
// token, converted to the withdrawn asset at the current window's rate (rounded up: the estimate
// never understates the cost). The application fee is zero: platform fee configs exist only for
// cross-currency transactions (reference FeeType), and a withdrawal is same-currency.
const APPLICATION_FEE = 0n;

/** `fee` smallest units of `token`, in smallest units of `asset`, rounded up. */
function convert(fee: bigint, token: FeeToken, asset: string, assetDecimals: number, at: Date): bigint {
  if (fee === 0n) return 0n;
  const rate = midRate(token.code, asset, at).rate; // asset major units per token major unit
  const num = fee * rate.num * 10n ** BigInt(assetDecimals);
  const den = rate.den * 10n ** BigInt(token.decimals);
  return (num + den - 1n) / den;
}

export async function estimateWithdrawalFee(platformId: string, req: EstimateWithdrawalFeeRequest) {
  const asset = req.currency.trim().toUpperCase();
  const info = currencyInfo(asset);
  if (!info?.crypto) {
    throw new DomainError('INVALID_CURRENCY', `${req.currency} is not a crypto asset this service carries`, {
      errors: [{ field: 'currency', message: 'must be a crypto asset', constraint: { enum: ['BTC', 'USDC', 'USDT'] } }],
    });
  }
  const errors: FieldError[] = [];
  const network = req.cryptoNetwork.trim().toUpperCase() as CryptoNetwork;
  const fee = networkFee(asset, network);
  if (!CRYPTO_NETWORKS.includes(network)) {
    errors.push({
      field: 'cryptoNetwork',
      message: `${req.cryptoNetwork} is not a supported network`,
      constraint: { enum: [...CRYPTO_NETWORKS] },
    });
  } else {
    if (!fee)
      errors.push({
        field: 'cryptoNetwork',
        message: `${asset} cannot be withdrawn on ${network}`,
        constraint: { enum: networksFor(asset) },
      });
    const problem = addressProblem(network, req.destinationAddress);
    if (problem) errors.push({ field: 'destinationAddress', message: problem });
  }
  if (errors.length || !fee) throw invalidInput(errors.map((e) => `${e.field} ${e.message}`).join('; '), errors);

  const account = await accounts.findRow(platformId, req.internalAccountId, db());
  if (!account) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${req.internalAccountId}`);
  if (account.type !== 'INTERNAL_CRYPTO')
    throw fieldError('internalAccountId', `Internal account ${account.id} is not a crypto account`);
  if (account.currency !== asset)
    throw fieldError('currency', `Internal account ${account.id} holds ${account.currency}, not ${asset}`);
  if (account.status !== 'ACTIVE')
    throw fieldError('internalAccountId', `Internal account ${account.id} is ${account.status}`);

  const onChain = fee.fee(req.amount);
  const totalFee = convert(onChain, fee.token, asset, info.decimals, now()) + APPLICATION_FEE;
  if (req.amount <= totalFee) {
    throw new DomainError(
      'AMOUNT_OUT_OF_RANGE',
      `The amount does not cover the ${network} withdrawal fee of ${totalFee} (smallest units of ${asset})`,
      { totalFee, amount: req.amount },
    );
  }
  return {
    networkFee: onChain,
    networkFeeAsset: fee.token.code,
    applicationFee: APPLICATION_FEE,
    totalFee,
    netAmount: req.amount - totalFee,
  };
}
