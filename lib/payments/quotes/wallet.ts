import type { WalletSignatureCheck } from './execute';

// Execution of a quote whose source is an Embedded Wallet needs the wallet holder's stamp over the
// quote's payloadToSign, from a session of that wallet (reading and verification live in lib/auth).
export function walletSignatureForQuote(stamp: string | null): WalletSignatureCheck {
  return async (quote, tx) => {
    const { verifyWalletSignature } = await import('../../wallet-auth/wallet-signature');
    await verifyWalletSignature({
      platformId: quote.platformId,
      accountId: quote.sourceAccountId!,
      payload: quote.payloadToSign!,
      stamp,
      tx,
      missingMessage:
        'This quote is funded by an Embedded Wallet: send Service-Wallet-Signature, a stamp over the quote payloadToSign',
    });
  };
}
