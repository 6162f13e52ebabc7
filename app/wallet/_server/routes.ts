import 'server-only';
// The API operations the wallet pages may forward to: nothing else is reachable from them.
export * as credentialChallenge from '@/app/api/2025-10-13/auth/credentials/[id]/challenge/route';
export * as credentialVerify from '@/app/api/2025-10-13/auth/credentials/[id]/verify/route';
export * as credentials from '@/app/api/2025-10-13/auth/credentials/route';
export * as credential from '@/app/api/2025-10-13/auth/credentials/[id]/route';
export * as session from '@/app/api/2025-10-13/auth/sessions/[id]/route';
export * as customer from '@/app/api/2025-10-13/customers/[customerId]/route';
export * as internalAccounts from '@/app/api/2025-10-13/customers/internal-accounts/route';
export * as externalAccounts from '@/app/api/2025-10-13/customers/external-accounts/route';
export * as transactions from '@/app/api/2025-10-13/transactions/route';
export * as quotes from '@/app/api/2025-10-13/quotes/route';
export * as quote from '@/app/api/2025-10-13/quotes/[quoteId]/route';
export * as quoteExecute from '@/app/api/2025-10-13/quotes/[quoteId]/execute/route';
export * as walletExport from '@/app/api/2025-10-13/internal-accounts/[id]/export/route';
export * as umaLookup from '@/app/api/2025-10-13/receiver/uma/[receiverUmaAddress]/route';
export * as cards from '@/app/api/2025-10-13/cards/route';
