import Link from 'next/link';
import { QueryProvider } from '@/components/query-provider';
import { WalletApp } from '@/components/wallet/app';

export const metadata = { title: 'Wallet · Corridor' };

export default function WalletPage() {
  return (
    <main className="mx-auto max-w-2xl px-4 py-8">
      <p className="text-sm">
        <Link href="/" className="underline">
          Corridor
        </Link>
      </p>
      <h1 className="mb-6 text-2xl font-semibold">Your wallet</h1>
      <QueryProvider>
        <WalletApp />
      </QueryProvider>
    </main>
  );
}
