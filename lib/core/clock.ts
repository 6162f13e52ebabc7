import { currentActor, type PlatformClock } from './context';
export type { PlatformClock };

// The one clock. In sandbox a platform may fast-forward its own time (POST /sandbox/clock/advance)
// or have it frozen (tests: it then moves only when advanced); both live on the platform row and
// are carried by the request context, so one platform's time travel never moves another's.
// Outside a platform context this is the wall clock.
export const WALL_CLOCK: PlatformClock = { clockOffsetMs: 0n, clockFrozenAt: null };

export function now(): Date {
  return nowFor(currentActor() ?? WALL_CLOCK);
}

/** The time on a platform's clock (its row, or an actor of it). */
export function nowFor(clock: PlatformClock): Date {
  return new Date((clock.clockFrozenAt?.getTime() ?? Date.now()) + Number(clock.clockOffsetMs));
}

/** Just the clock of a platform row or actor (for an actor built from a row that holds more). */
export function clockOf(clock: PlatformClock): PlatformClock {
  return { clockOffsetMs: BigInt(clock.clockOffsetMs), clockFrozenAt: clock.clockFrozenAt };
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
