'use client';
import './globals.css';

// The last-resort error page (when even the root layout failed), styled by classes only: the
// site's CSP refuses inline styles such as those of Next.js's built-in page.
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900">
        <main className="mx-auto max-w-xl px-6 py-16">
          <h1 className="text-2xl font-semibold">Something went wrong</h1>
          <p className="mt-2 text-slate-700">The page could not be shown. Nothing was changed by showing it.</p>
          <button type="button" onClick={reset} className="mt-4 rounded border border-slate-400 px-3 py-1">
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
