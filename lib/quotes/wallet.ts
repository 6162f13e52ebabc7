import { ApiError } from '../http/errors';
import type { WalletSignatureCheck } from './execute';

// Execution of a quote whose source is an Embedded Wallet needs the wallet holder's stamp over the
// quote's payloadToSign, from a session of that wallet (verification lives in lib/auth).
export function walletSignatureForQuote(req: Request): WalletSignatureCheck {
  return async (quote, tx) => {
    const stamp = req.headers.get('service-wallet-signature') ?? req.headers.get('grid-wallet-signature');
    if (!stamp) throw new ApiError('WALLET_SIGNATURE_MISSING', 'This quote is funded by an Embedded Wallet: send Service-Wallet-Signature, a stamp over the quote payloadToSign');
    const { verifyWalletStamp } = await import('../auth/wallet-signature');
    await verifyWalletStamp({ platformId: quote.platformId, accountId: quote.sourceAccountId!, payload: quote.payloadToSign!, stamp, tx });
  };
}
