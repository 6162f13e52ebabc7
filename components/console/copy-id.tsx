'use client';
import { useState } from 'react';
import { shortId } from '../format';

// An id kept one click away: shown short, copied whole. Staff paste ids into support tickets and
// API calls, so the button copies the exact id, never the shortened text.
/** `label`: what to show instead of the short id (e.g. keeping a reference's suffix). */
export function CopyId({ id, label }: { id: string; label?: string }) {
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
      <span className="truncate">{label ?? shortId(id)}</span>
      {/* Drawn, not a glyph: the copy sign is missing from common system fonts. */}
      <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5 shrink-0" fill="none" stroke="currentColor">
        {copied ? (
          <path d="M3 8.5l3 3 7-7" strokeWidth="1.8" />
        ) : (
          <>
            <rect x="5.5" y="5.5" width="8.5" height="8.5" rx="1.5" strokeWidth="1.4" />
            <path
              d="M10.5 5.5V3.5a1.5 1.5 0 0 0-1.5-1.5H3.5A1.5 1.5 0 0 0 2 3.5V9a1.5 1.5 0 0 0 1.5 1.5h2"
              strokeWidth="1.4"
            />
          </>
        )}
      </svg>
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
