import { ttlCache } from '../core/cache';
import type { Principal } from '../core/context';

// Authenticated principals for a few seconds: saves the credential lookup on most requests.
// A deleted token or a moved sandbox clock takes effect at once in this process (forget*) and
// within the TTL in other processes.
export const principals = ttlCache<Principal>('principals', 5_000);

export function forgetToken(tokenId: string): void {
  principals.deleteWhere((_k, p) => p.kind === 'platform' && p.tokenId === tokenId);
}

/** Cached principals carry the platform's sandbox clock offset: drop them when it moves. */
export function forgetPlatform(platformId: string): void {
  principals.deleteWhere((_k, p) => p.platformId === platformId);
}
