import { currentActor } from './context';

// The one clock. In sandbox a platform may fast-forward its own time (POST /sandbox/clock/advance);
// the offset lives on the platform row and is carried by the request context, so one platform's
// time travel never moves another's. Outside a platform context this is the wall clock.
export function now(): Date {
  const offset = currentActor()?.clockOffsetMs ?? 0n;
  return new Date(Date.now() + Number(offset));
}

export function nowFor(clockOffsetMs: bigint): Date {
  return new Date(Date.now() + Number(clockOffsetMs));
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
