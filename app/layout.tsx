import type { ReactNode } from 'react';
import { connection } from 'next/server';
import './globals.css';

export const metadata = { title: 'Corridor', description: 'Self-hostable global payments service' };

// Every page is rendered per request: the Content-Security-Policy nonce (proxy.ts) differs per
// request and Next.js can only put it on the scripts of a page it renders then.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
