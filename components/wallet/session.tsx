'use client';
import { useEffect, useState } from 'react';
import { ConfirmItsYou } from './reauth';
import { plainClass } from './ui';

// The wallet session's time left, visible all along, and a prompt to extend it shortly before it
// ends: confirming it's you (passkey or code) opens a new session in place — the page, its
// balances and whatever is being typed stay. The server answers the seconds left on the
// platform's own clock (a sandbox clock may be moved), so the count starts from that figure.
export const WARN_SECONDS = 120;

const mmss = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export function SessionClock({ secondsLeft, onExpired }: { secondsLeft: number; onExpired: () => void }) {
  const [extending, setExtending] = useState(false);
  const [deadline] = useState(() => Date.now() + secondsLeft * 1000);
  const [left, setLeft] = useState(secondsLeft);
  useEffect(() => {
    const tick = () => {
      const s = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      setLeft(s);
      if (s === 0) onExpired();
    };
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [deadline, onExpired]);
  return (
    <>
      <p className="text-sm text-slate-700">
        Session: <span aria-label="Session time left">{mmss(left)}</span> left
      </p>
      {left <= WARN_SECONDS ? (
        <div role="alert" className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="mb-2">
            Your session ends in {mmss(left)}. Stay signed in by confirming it&apos;s you; nothing on this page is lost.
          </p>
          {extending ? (
            <ConfirmItsYou
              why="A new 15-minute session starts once you have confirmed."
              onConfirmed={() => setExtending(false)}
              onCancel={() => setExtending(false)}
            />
          ) : (
            <button type="button" className={plainClass} onClick={() => setExtending(true)}>
              Stay signed in
            </button>
          )}
        </div>
      ) : null}
    </>
  );
}
