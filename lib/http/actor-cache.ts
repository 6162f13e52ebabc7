import type { Actor } from '../core/context';
import { sharedCache } from '../core/shared-cache';

// Authenticated principals for a few seconds: saves the credential lookup on most requests.
// A deleted token (topic `api-token`) or a platform whose sandbox clock moved (topic `platform`:
// principals carry the clock offset) is dropped at once in every server process
// (lib/core/invalidation.ts); the TTL is only a backstop.
export const principals = sharedCache<Actor>('principals', 5_000, {
  'api-token': (tokenId, _key, p) => p.kind === 'platform' && p.tokenId === tokenId,
  platform: (platformId, _key, p) => p.platformId === platformId,
});
