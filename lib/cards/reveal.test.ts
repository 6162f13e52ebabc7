import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, type Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { publicBaseUrl } from '@/lib/core/mode';
import { GET as revealPage } from '@/app/cards/reveal/[token]/route';
import { passesLuhn } from './pan';
import { revealToken, verifyToken } from './reveal';
import { activeCard, cardholder } from './testing';

// Card-detail reveals: a signed, short-lived, single-use URL of this service's page, recorded
// with the actor who asked; the page refuses tampered, expired and reused links.
async function open(url: string) {
  const token = decodeURIComponent(new URL(url).pathname.split('/').pop()!);
  const res = await revealPage(new Request(url), { params: Promise.resolve({ token }) });
  return { status: res.status, headers: res.headers, html: await res.text(), token };
}

let p: TestPlatform;
let h: Holder;
let card: { id: string; last4: string };
beforeAll(async () => {
  p = await newPlatform();
  h = await cardholder(p, 'Rita Reveal');
  card = await activeCard(p, h);
});

const mint = async () => {
  const res = await p.api.post(`/cards/${card.id}/reveal`);
  expect(res.status, res.text).toBe(200);
  return res.body as { panEmbedUrl: string; expiresAt: string };
};

it('mints a URL of the reveal page that shows PAN, CVV and expiry once', async () => {
  const r = await mint();
  expect(r.panEmbedUrl.startsWith(`${publicBaseUrl()}/cards/reveal/`)).toBe(true);
  const minutes = (Date.parse(r.expiresAt) - Date.now()) / 60_000;
  expect(minutes).toBeGreaterThan(4);
  expect(minutes).toBeLessThanOrEqual(5.1);
  const first = await open(r.panEmbedUrl);
  expect(first.status).toBe(200);
  expect(first.headers.get('cache-control')).toContain('no-store');
  const pan = /data-testid="pan">([\d ]+)</.exec(first.html)![1].replace(/ /g, '');
  expect(passesLuhn(pan)).toBe(true);
  expect(pan.slice(-4)).toBe(card.last4);
  expect(first.html).toMatch(/data-testid="cvv">\d{3}</);
  expect(first.html).toMatch(/data-testid="expiry">\d{2}\/\d{2}</);
  // The card resource never carries the PAN.
  expect((await p.api.get(`/cards/${card.id}`)).text).not.toContain(pan);
  const again = await open(r.panEmbedUrl);
  expect(again.status).toBe(404);
  expect(again.html).not.toContain(pan);
});

it('records every reveal with the actor that asked for it', async () => {
  const before = await db().cardReveal.count({ where: { cardId: card.id } });
  await mint();
  const other = await p.withPermissions('TRANSACT');
  expect((await other.post(`/cards/${card.id}/reveal`)).status).toBe(200);
  const rows = await db().cardReveal.findMany({ where: { cardId: card.id }, orderBy: { createdAt: 'asc' } });
  expect(rows).toHaveLength(before + 2);
  const [a, b] = rows.slice(-2);
  expect(a.actorKind).toBe('TOKEN');
  expect(a.actorId).toMatch(/^Token:/);
  expect(b.actorId).toMatch(/^Token:/);
  expect(b.actorId).not.toBe(a.actorId);
  expectError(await (await p.withPermissions('VIEW')).post(`/cards/${card.id}/reveal`), 403, 'FORBIDDEN');
});

it('refuses a tampered link', async () => {
  const r = await mint();
  const token = decodeURIComponent(new URL(r.panEmbedUrl).pathname.split('/').pop()!);
  const claims = verifyToken(token)!;
  const [payload, sig] = token.split('.');
  const flip = (s: string) => (s[5] === 'A' ? s.slice(0, 5) + 'B' + s.slice(6) : s.slice(0, 5) + 'A' + s.slice(6));
  const longer = JSON.stringify({ ...claims, e: claims.e + 3_600_000 });
  const forged = `${Buffer.from(longer).toString('base64url')}.${sig}`;
  for (const bad of [
    `${payload}.${flip(sig)}`,
    `${flip(payload)}.${sig}`,
    forged,
    `${payload}`,
    `${token}.x`,
    'nonsense',
  ]) {
    expect((await open(`${publicBaseUrl()}/cards/reveal/${encodeURIComponent(bad)}`)).status).toBe(404);
  }
  // A genuinely signed token naming a reveal record that does not exist is refused too.
  const stray = revealToken({ r: 'CardReveal:00000000-0000-0000-0000-000000000000', c: card.id, e: claims.e });
  expect((await open(`${publicBaseUrl()}/cards/reveal/${stray}`)).status).toBe(404);
  // The untouched link still works once.
  expect((await open(r.panEmbedUrl)).status).toBe(200);
});

it('refuses an expired link (platform time: the sandbox clock)', async () => {
  const fresh = await mint();
  const stale = await mint();
  await advance(p, 200);
  expect((await open(fresh.panEmbedUrl)).status).toBe(200);
  await advance(p, 101);
  expect((await open(stale.panEmbedUrl)).status).toBe(404);
});

it('answers 404 for an unknown card', async () => {
  expectError(await p.api.post('/cards/Card:00000000-0000-0000-0000-000000000000/reveal'), 404, 'REFERENCE_NOT_FOUND');
});
