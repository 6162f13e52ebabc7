import { beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import type { Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { GET as revealPage, HEAD as revealHead } from '@/app/cards/reveal/[token]/route';
import { activeCard, cardholder } from './testing';

// What may use a reveal link up, and when it shows nothing (issue 23, item 7): only a GET that
// shows the details consumes the link (a HEAD from a link checker or a preview fetch does not),
// and a card frozen or closed after its link was minted has nothing shown through that link.
const tokenOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);
const params = (url: string) => ({ params: Promise.resolve({ token: tokenOf(url) }) });

async function get(url: string) {
  const res = await revealPage(new Request(url), params(url));
  return { status: res.status, html: await res.text() };
}
async function head(url: string) {
  const res = await revealHead(new Request(url, { method: 'HEAD' }), params(url));
  return { status: res.status, body: await res.text(), cacheControl: res.headers.get('cache-control') };
}

let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  h = await cardholder(p, 'Lina Links');
});

async function mint(cardId: string): Promise<string> {
  const res = await p.api.post(`/cards/${cardId}/reveal`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { panEmbedUrl: string }).panEmbedUrl;
}
const usedAt = async (url: string) => {
  const revealId = JSON.parse(Buffer.from(tokenOf(url).split('.')[0], 'base64url').toString('utf8')).r as string;
  return (await db().cardReveal.findUniqueOrThrow({ where: { id: revealId } })).usedAt;
};
const panOf = (html: string) => /data-testid="pan">([\d ]+)</.exec(html)?.[1].replace(/ /g, '');

it('answers HEAD with the status GET would give, without using the link up', async () => {
  const card = await activeCard(p, h);
  const url = await mint(card.id);
  for (let i = 0; i < 3; i++) {
    const probe = await head(url);
    expect(probe).toMatchObject({ status: 200, body: '' });
    expect(probe.cacheControl).toContain('no-store');
  }
  expect(await usedAt(url)).toBeNull();
  const shown = await get(url);
  expect(shown.status).toBe(200);
  expect(panOf(shown.html)?.slice(-4)).toBe(card.last4);
  // Used now: HEAD says so, and GET shows nothing.
  expect((await head(url)).status).toBe(404);
  expect((await get(url)).status).toBe(404);
  expect((await head(`${url}x`)).status).toBe(404); // altered
});

it('shows nothing through a link minted before the card was closed', async () => {
  const card = await activeCard(p, h);
  const url = await mint(card.id);
  expect((await p.api.patch(`/cards/${card.id}`, { state: 'CLOSED' })).status).toBe(200);
  expect((await head(url)).status).toBe(403);
  const page = await get(url);
  expect(page.status).toBe(403);
  expect(page.html).toContain('This card is closed, so its details are not shown');
  expect(panOf(page.html)).toBeUndefined();
  expect(page.html).not.toMatch(/data-testid="cvv"/);
  expect(await usedAt(url)).toBeNull();
});

it('shows nothing through a link while its card is frozen', async () => {
  const card = await activeCard(p, h);
  const url = await mint(card.id);
  expect((await p.api.patch(`/cards/${card.id}`, { state: 'FROZEN' })).status).toBe(200);
  const page = await get(url);
  expect(page.status).toBe(403);
  expect(page.html).toContain('This card is frozen, so its details are not shown');
  expect(panOf(page.html)).toBeUndefined();
  // The link was not used up by the refusal; it stays bound to its five minutes.
  expect(await usedAt(url)).toBeNull();
  expect((await p.api.patch(`/cards/${card.id}`, { state: 'ACTIVE' })).status).toBe(200);
  expect((await get(url)).status).toBe(200);
});
