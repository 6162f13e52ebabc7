// The source address of a request, for throttling failed authentication (lib/tokens/throttle.ts).
// scripts/server.mjs writes the TCP peer's address into PEER_ADDRESS_HEADER, replacing any value
// a client sent. X-Forwarded-For is believed only as far as CORRIDOR_TRUSTED_PROXIES says: with
// N trusted reverse proxies in front, each appending the address it received the request from,
// the client is the N-th entry from the right (entries further left were written by the client
// and prove nothing). Unset or 0: the header is ignored and the peer is the source.
export const PEER_ADDRESS_HEADER = 'x-corridor-peer-address';

export function trustedProxies(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.CORRIDOR_TRUSTED_PROXIES ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export function clientAddress(headers: Headers, proxies = trustedProxies()): string {
  const peer = headers.get(PEER_ADDRESS_HEADER)?.trim() || 'unknown';
  if (!proxies) return peer;
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Fewer entries than proxies: the request came through fewer of them; the leftmost entry is
  // still one a trusted proxy wrote.
  return hops.length ? hops[Math.max(0, hops.length - proxies)] : peer;
}
