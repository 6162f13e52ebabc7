'use client';

// A console page that failed to render: say so, and offer to try again (the cause is in the
// server log under this digest).
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded border border-red-300 bg-red-50 p-4 text-sm text-red-950">
      <h1 className="text-lg font-semibold">This page could not be shown</h1>
      <p className="mt-1">
        Something failed on the server{error.digest ? ` (reference ${error.digest})` : ''}. Nothing was changed by
        showing this page.
      </p>
      <button type="button" onClick={reset} className="mt-3 rounded border border-red-400 bg-white px-3 py-1">
        Try again
      </button>
    </div>
  );
}
