'use client';
import { useEffect, useState } from 'react';
import { plainClass } from './ui';

// The wallet session's time left, visible all along, and a prompt to sign in again shortly before
// it ends. The server answers the seconds left on the platform's own clock (a sandbox clock may
// be moved), so the count starts from that figure, not from the browser's clock.
export const WARN_SECONDS = 120;

const mmss = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export function SessionClock({
  secondsLeft,
  onExpired,
  onRenew,
}: {
  secondsLeft: number;
  onExpired: () => void;
  onRenew: () => void;
}) {
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
            Your session ends in {mmss(left)}. Sign in again to keep going; what you typed is kept.
          </p>
          <button type="button" className={plainClass} onClick={onRenew}>
            Sign in again
          </button>
        </div>
      ) : null}
    </>
  );
}
