'use client';
import { useState } from 'react';
import { shortId } from '../format';

// An id kept one click away: shown short, copied whole. Staff paste ids into support tickets and
// API calls, so the button copies the exact id, never the shortened text.
export function CopyId({ id }: { id: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // No clipboard (insecure origin, denied): the full id stays in the button's title to select.
    }
  };
  return (
    <button
      type="button"
      onClick={copy}
      title={id}
      aria-label={`Copy id ${id}`}
      className="inline-flex max-w-full items-center gap-1 rounded px-0.5 font-mono text-xs text-slate-700 hover:bg-slate-100"
    >
      <span className="truncate">{shortId(id)}</span>
      <span aria-hidden="true">{copied ? '✓' : '⧉'}</span>
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
