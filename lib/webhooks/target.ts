import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Where webhooks may be sent. A platform chooses its endpoint URL, so without these checks the
// service could be made to POST into its own network (cloud metadata at 169.254.169.254, admin
// ports on loopback, internal hosts). Rules: http(s) only, no credentials in the URL, and every
// address the hostname resolves to must be public. The caller connects to the address checked
// here (never resolving again), so a DNS answer that changes between check and connect
// (rebinding) cannot redirect the request.
//
// Setting: CORRIDOR_WEBHOOK_ALLOW_PRIVATE=1 allows private, loopback and link-local targets
// (local development and tests, whose receivers listen on 127.0.0.1). Leave it unset in production.
export function allowPrivateTargets(env: Record<string, string | undefined> = process.env): boolean {
  return env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE === '1' || env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE === 'true';
}

export class TargetRefused extends Error {}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified and IPv4-compatible (::a.b.c.d)
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: embeds an IPv4 address the gateway would reach for us
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo embeds an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address a relay would reach for us
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True for addresses a webhook must not reach: private, loopback, link-local, reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address: refuse rather than guess
  if (family === 4) return blocked.check(address, 'ipv4');
  // BlockList matches IPv4-mapped IPv6 (::ffff:a.b.c.d) against the IPv4 rules too.
  return blocked.check(address, 'ipv6');
}

export interface Resolved {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });
/** A name that has not resolved by then is treated as one that does not resolve. */
const RESOLVE_TIMEOUT_MS = 5_000;

// What a refusal says never includes what a name resolved to (nor whether it resolved at all: a
// name that does not resolve and one that resolves to a private address get the same answer),
// else anyone who may set an endpoint could map the service's internal network and DNS.
const notPublicName = (host: string) =>
  `${host} does not resolve to public addresses only (private, loopback or link-local and other reserved addresses are refused)`;
const notPublicAddress = (host: string) =>
  `${host} is not a public address (private, loopback or link-local and other reserved addresses are refused)`;

function parse(raw: string): { url: URL; host: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('the webhook endpoint is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TargetRefused(`scheme ${url.protocol} is not allowed (http or https only)`);
  if (url.username || url.password) throw new TargetRefused('credentials in the webhook URL are not allowed');
  return { url, host: url.hostname.replace(/^\[(.*)\]$/, '$1') };
}

async function addressesOf(host: string, resolve: Resolver): Promise<{ address: string; family: number }[]> {
  if (isIP(host)) return [{ address: host, family: isIP(host) }];
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS);
      }),
    ]);
    if (found.length) return found;
  } catch {
    // whatever the resolver said stays here
  } finally {
    clearTimeout(timer);
  }
  throw new TargetRefused(notPublicName(host));
}

/** Checks a webhook URL and resolves it to the one address to connect to; throws TargetRefused. */
export async function resolveTarget(
  raw: string,
  opts: { allowPrivate?: boolean; resolve?: Resolver } = {},
): Promise<Resolved> {
  const { url, host } = parse(raw);
  const addresses = await addressesOf(host, opts.resolve ?? systemResolver);
  const allowPrivate = opts.allowPrivate ?? allowPrivateTargets();
  // All of them, not just the first: a name with one public and one private answer is refused.
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    throw new TargetRefused(isIP(host) ? notPublicAddress(host) : notPublicName(host));
  const chosen = addresses[0];
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/**
 * The check made when an endpoint is configured (PATCH /config): the same rules as at delivery,
 * which still checks every attempt (a name may resolve elsewhere later). With private targets
 * allowed (local development) a name is not resolved here at all.
 */
export async function checkEndpoint(raw: string, opts: { allowPrivate?: boolean; resolve?: Resolver } = {}) {
  const allowPrivate = opts.allowPrivate ?? allowPrivateTargets();
  if (allowPrivate) return void parse(raw);
  await resolveTarget(raw, { ...opts, allowPrivate });
}
