import Link from 'next/link';

export const metadata = { title: 'Not found · Corridor' };

// The 404 page (Next.js's built-in one carries inline styles, which this site's CSP refuses).
export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-700">There is nothing at this address.</p>
      <Link href="/" className="mt-4 inline-block text-blue-800 underline">
        Go to the start page
      </Link>
    </main>
  );
}
