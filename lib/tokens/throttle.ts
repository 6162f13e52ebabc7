import { errorText, log } from '../core/log';
import { isIP } from 'node:net';
import { now } from '../core/clock';
import { DomainError } from '../core/errors';
import { currentCorridor, within } from '../core/context';
import { startListener, subscribe } from '../core/invalidation';
import * as repo from './throttle-repository';

// Throttling of failed authentication, per source address and per client id. Only failures
// count, and they are counted in the database, across every server process:
// - an address with CORRIDOR_AUTH_MAX_FAILURES_PER_ADDRESS failures within the window is refused
//   (429 RATE_LIMITED, Retry-After) for every request carrying credentials until its window ends;
// - a client id with CORRIDOR_AUTH_MAX_FAILURES_PER_CLIENT failures within the window (from all
//   addresses together) is under attack: from then on each address that fails for it is refused
//   for that client id until the window ends. Addresses that have not failed for it are not: the
//   client holding the right secret keeps working while its client id is attacked elsewhere.
// A refused request is answered without evaluating its credentials, so a refusal cannot be used
// to test guesses. Valid requests never wait on this: the check before authentication is a
// lookup in this process's memory, which holds the refusals in force (each process learns of
// new ones through lib/core/invalidation.ts, topic `auth-block`, and loads them when it starts
// listening); a success writes nothing and resets nothing.
//
// IPv6 sources are counted per /64 (one subscriber's allocation), else an attacker would rotate
// addresses within it for free.
export interface ThrottleLimits {
  windowMs: number;
  perAddress: number;
  perClient: number;
}

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : fallback;
}

export function throttleLimits(env: Record<string, string | undefined> = process.env): ThrottleLimits {
  return {
    windowMs: positive(env.CORRIDOR_AUTH_FAILURE_WINDOW_SECONDS, 300) * 1000,
    perAddress: positive(env.CORRIDOR_AUTH_MAX_FAILURES_PER_ADDRESS, 30),
    perClient: positive(env.CORRIDOR_AUTH_MAX_FAILURES_PER_CLIENT, 10),
  };
}

export interface ThrottleState {
  /** Refusals in force in this process: key -> until (epoch ms). */
  blocks: Map<string, number>;
  /** The first load of the refusals in force, awaited by the first checks of this process. */
  loaded: Promise<void> | null;
  ready: boolean;
}
type State = ThrottleState;

declare module '../core/context' {
  interface CorridorParts {
    /** Authentication refusals in force, as this instance knows them. */
    authThrottle: ThrottleState;
  }
}

export function createThrottleState(): ThrottleState {
  return { blocks: new Map(), loaded: null, ready: false };
}

function remember(state: State, keys: string[], until: number): void {
  if (state.blocks.size > 50_000) {
    const t = Date.now();
    for (const [k, u] of state.blocks) if (u <= t) state.blocks.delete(k);
  }
  for (const k of keys) state.blocks.set(k, Math.max(until, state.blocks.get(k) ?? 0));
}

async function reload(state: State): Promise<void> {
  try {
    for (const b of await repo.activeBlocks(now())) remember(state, [b.key], b.blockedUntil.getTime());
  } catch (err) {
    log().error({ err: errorText(err) }, 'cannot load authentication refusals');
  }
}

/**
 * On first use: subscribes to refusals made by other processes (the listener reloads them all
 * when it connects, after it listens, so none falls between) and loads those in force now.
 */
function ensure(): Promise<void> {
  const corridor = currentCorridor();
  const state = corridor.authThrottle;
  if (state.loaded) return state.loaded;
  // Notifications arrive outside any work's context: the reload runs under this instance.
  const reloadHere = () => void within(corridor, () => reload(state));
  subscribe('auth-block', 'auth-throttle', (key) => {
    if (key === null) return reloadHere(); // the listener (re)connected: refusals may have been missed
    try {
      const { until, keys } = JSON.parse(key) as { until: number; keys: string[] };
      remember(state, keys, until);
    } catch {
      reloadHere();
    }
  });
  startListener();
  return (state.loaded = reload(state).then(() => void (state.ready = true)));
}

/** The source a failure is counted against: the address, or its /64 for IPv6. */
export function sourceOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((x) => x.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const addressKey = (source: string) => `a:${source}`;
const pairKey = (client: string, source: string) => `p:${client}|${source}`;

function rateLimited(untilMs: number, nowMs: number): DomainError {
  const wait = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  return new DomainError(
    'RATE_LIMITED',
    `Too many failed authentication attempts; retry in ${wait} s`,
    { retryAfterSeconds: wait },
    { retryAfterSeconds: wait },
  );
}

/** Before credentials are evaluated: throws RATE_LIMITED when this source (for this client id) is refused. */
export async function refuseIfBlocked(address: string, username: string | null): Promise<void> {
  const state = currentCorridor().authThrottle;
  if (!state.ready) await ensure();
  const t = Date.now();
  const source = sourceOf(address);
  const until = Math.max(
    state.blocks.get(addressKey(source)) ?? 0,
    username === null ? 0 : (state.blocks.get(pairKey(username, source)) ?? 0),
  );
  if (until > t) throw rateLimited(until, t);
}

/**
 * After credentials failed: counts the failure against the source and, when the token exists,
 * its client id; refuses what crossed a limit from now until its window ends.
 */
export async function recordFailure(address: string, token: { id: string; clientId: string } | null): Promise<void> {
  await ensure();
  const limits = throttleLimits();
  const source = sourceOf(address);
  const at = now();
  const keys = [addressKey(source), ...(token ? [`c:${token.id}`] : [])];
  try {
    const counts = await repo.countFailures(keys, at, limits.windowMs);
    const end = (c: repo.FailureCount) => new Date(c.windowStart.getTime() + limits.windowMs);
    for (const c of counts) {
      if (c.key.startsWith('a:') && c.failures >= limits.perAddress) await refuse([c.key], at, end(c));
      if (c.key.startsWith('c:') && c.failures >= limits.perClient && token)
        await refuse([pairKey(token.clientId, source), pairKey(token.id, source)], at, end(c));
    }
  } catch (err) {
    // The request fails either way (401); a counting failure must not turn it into a 500.
    log().error({ err: errorText(err) }, 'cannot count a failed authentication');
  }
}

async function refuse(keys: string[], at: Date, until: Date): Promise<void> {
  remember(currentCorridor().authThrottle, keys, until.getTime());
  await repo.block(keys, at, until);
}

/** Rows of ended windows and refusals, a day after they ended. */
export function purgeStaleFailures(wallNow: Date, limit?: number): Promise<number> {
  return repo.purgeEnded(new Date(wallNow.getTime() - throttleLimits().windowMs - 24 * 3600_000), limit);
}
