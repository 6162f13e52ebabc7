import { createHmac, timingSafeEqual } from 'node:crypto';
import { newId } from '../core/ids';
import { addSeconds, now, nowFor } from '../core/clock';
import { currentActor, type Actor } from '../core/context';
import { DomainError, notFound } from '../core/errors';
import { publicBaseUrl } from '../core/mode';
import { tokenKey, unseal } from '../core/crypto/vault';
import * as platforms from '../platform/repository';
import * as repo from './repository';
import { sealPurpose } from './service';
import { db } from '@/lib/core/db';

// Card-detail reveals. POST /cards/{id}/reveal mints a URL of this service's reveal page
// (/cards/reveal/<token>) that shows PAN, CVV and expiry once: the token is HMAC-signed with a
// key derived from the master key (so it cannot be forged or altered), names a CardReveal row
// that records who asked for it, expires after REVEAL_SECONDS of the platform's time, and is
// consumed by a conditional UPDATE the first time the page opens it with GET, and only while the
// card is ACTIVE: a frozen or closed card's details are never shown, whenever the link was minted.
export const REVEAL_SECONDS = 300;
const key = () => tokenKey('card-reveal');

interface Claims {
  r: string; // CardReveal id
  c: string; // Card id
  e: number; // expiry, ms since epoch (platform time)
}

const sign = (payload: string) => createHmac('sha256', key()).update(payload).digest('base64url');

export function revealToken(claims: Claims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

/** The claims of an untampered token, or null. */
export function verifyToken(token: string): Claims | null {
  const [payload, sig, ...rest] = token.split('.');
  if (!payload || !sig || rest.length) return null;
  const want = Buffer.from(sign(payload));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
    return typeof c.r === 'string' && typeof c.c === 'string' && typeof c.e === 'number' ? c : null;
  } catch {
    return null;
  }
}

/** Who to record a reveal against; a caller that is no one in particular may not reveal. */
function attributable(actor: Actor | undefined): { actorKind: string; actorId: string } {
  switch (actor?.kind) {
    case 'platform':
      return { actorKind: 'TOKEN', actorId: actor.tokenId };
    case 'agent':
      return { actorKind: 'AGENT', actorId: actor.agentId };
    case 'staff':
      return { actorKind: 'STAFF', actorId: actor.staffUserId };
    default:
      throw new DomainError('FORBIDDEN', 'A card reveal needs an attributable actor to audit it against');
  }
}

export async function mintReveal(platformId: string, cardId: string) {
  const card = await repo.findCard(platformId, cardId, db());
  if (!card) throw notFound('REFERENCE_NOT_FOUND', `Card ${cardId}`);
  const who = attributable(currentActor());
  const at = now();
  const expiresAt = addSeconds(at, REVEAL_SECONDS);
  const id = newId('CardReveal');
  await repo.insertReveal({ id, platformId, cardId, ...who, createdAt: at, expiresAt, usedAt: null }, db());
  const token = revealToken({ r: id, c: cardId, e: expiresAt.getTime() });
  return { panEmbedUrl: `${publicBaseUrl()}/cards/reveal/${token}`, expiresAt };
}

export interface RevealedCard {
  pan: string;
  cvv: string;
  expMonth: number;
  expYear: number;
  last4: string;
  brand: string;
}

/**
 * What a reveal link shows now: the card's details; nothing, because the link is not genuine, has
 * expired or was used; or nothing, because the card is no longer ACTIVE (frozen or closed since
 * the link was minted) — then the page says so.
 */
export type RevealOutcome =
  { kind: 'shown'; card: RevealedCard } | { kind: 'invalid' } | { kind: 'inactive'; state: string };

async function resolve(token: string) {
  const claims = verifyToken(token);
  if (!claims) return null;
  const card = await repo.findCardUnscoped(claims.c, db());
  if (!card) return null;
  const platform = await platforms.findById(card.platformId, db());
  if (!platform) return null;
  const at = nowFor(platform);
  if (claims.e <= at.getTime()) return null;
  return { claims, card, at };
}

/**
 * What opening the link would show, consuming nothing (HEAD requests and link checkers: only a
 * GET that shows the details uses the link up).
 */
export async function peekReveal(token: string): Promise<RevealOutcome['kind']> {
  const found = await resolve(token);
  if (!found || !(await repo.revealUsable(found.claims.r, found.card.id, found.at))) return 'invalid';
  return found.card.state === 'ACTIVE' ? 'shown' : 'inactive';
}

/**
 * Opens a reveal URL: the card's details for a genuine, unexpired, unused token of an ACTIVE card
 * (consuming it), otherwise what the page says instead.
 */
export async function openReveal(token: string): Promise<RevealOutcome> {
  const found = await resolve(token);
  if (!found) return { kind: 'invalid' };
  const { claims, card, at } = found;
  if (!(await repo.consumeReveal(claims.r, card.id, at))) {
    // Not consumed: used, expired, unknown, or the card is not ACTIVE (checked in the same
    // statement). A link that would otherwise still work is left unused.
    if (!(await repo.revealUsable(claims.r, card.id, at))) return { kind: 'invalid' };
    const state = (await repo.findCardUnscoped(card.id, db()))?.state ?? card.state;
    return state === 'ACTIVE' ? { kind: 'invalid' } : { kind: 'inactive', state };
  }
  const text = (sealed: string, what: 'pan' | 'cvv') =>
    Buffer.from(unseal(sealed, sealPurpose(card.id, what))).toString('utf8');
  return {
    kind: 'shown',
    card: {
      pan: text(card.panSealed, 'pan'),
      cvv: text(card.cvvSealed, 'cvv'),
      expMonth: card.expMonth,
      expYear: card.expYear,
      last4: card.last4,
      brand: card.brand,
    },
  };
}
