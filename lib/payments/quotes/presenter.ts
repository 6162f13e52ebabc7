import { currencyObject } from '../../core/currencies';
import { depositDetails } from '../../accounts/instructions';
import type { QuoteRow } from './repository';

// The wire shape of a quote (reference: Quote). Payment instructions are derived, not stored:
// none for an internal-account source, the wallet payload to sign for an Embedded Wallet source,
// deposit details for real-time funding (withheld while Strong Customer Authentication is pending).
type Json = Record<string, unknown>;

export interface ScaState {
  id: string;
  expiresAt: string;
  factor: string;
  availableFactors: string[];
  purpose?: string | null;
  // SMS_OTP: the code is an SCA code (lib/sca/codes.ts, subject: the quote). PASSKEY: the
  // dynamically linked WebAuthn challenge and the options handed to the device.
  passkeyChallenge?: string;
  passkeyAssertionOptions?: Record<string, unknown>;
  authorizedAt?: string;
}

function instructions(row: QuoteRow) {
  const source = row.source as Json;
  if (row.payloadToSign) {
    return [
      {
        instructionsNotes:
          'Stamp payloadToSign with a session key of the source Embedded Wallet and pass it as Service-Wallet-Signature to execute',
        isPlatformAccount: false,
        accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign: row.payloadToSign },
      },
    ];
  }
  if (source.sourceType !== 'REALTIME_FUNDING' || row.status === 'PENDING_AUTHORIZATION') return undefined;
  const info = depositDetails(
    row.sendingCurrency,
    row.id,
    typeof source.cryptoNetwork === 'string' ? source.cryptoNetwork : undefined,
  );
  if (!info) return undefined;
  return [
    {
      instructionsNotes: `Send exactly the total sending amount before the quote expires${'reference' in info ? ', with the reference code in the payment memo' : ''}`,
      isPlatformAccount: !row.customerId,
      accountOrWalletInfo: info,
    },
  ];
}

export function toQuote(row: QuoteRow) {
  const sca = row.scaChallenge as ScaState | null;
  const paymentInstructions = instructions(row);
  return {
    id: row.id,
    status: row.status,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    source: row.source as Json,
    destination: row.destination as Json,
    sendingCurrency: currencyObject(row.sendingCurrency),
    receivingCurrency: currencyObject(row.receivingCurrency),
    totalSendingAmount: row.totalSending,
    totalReceivingAmount: row.totalReceiving,
    exchangeRate: row.exchangeRate,
    feesIncluded: row.serviceFee + row.platformFee,
    platformFeesIncluded: row.platformFee,
    ...(paymentInstructions ? { paymentInstructions } : {}),
    transactionId: row.transactionId,
    ...(row.counterpartyInformation ? { counterpartyInformation: row.counterpartyInformation as Json } : {}),
    rateDetails: row.rateDetails as Json,
    ...(row.status === 'PENDING_AUTHORIZATION' && sca
      ? {
          scaChallenge: {
            id: sca.id,
            expiresAt: sca.expiresAt,
            factor: sca.factor,
            availableFactors: sca.availableFactors,
            purpose: sca.purpose ?? null,
            ...(sca.passkeyAssertionOptions ? { passkeyAssertionOptions: sca.passkeyAssertionOptions } : {}),
          },
        }
      : {}),
  };
}
export type Quote = ReturnType<typeof toQuote>;
