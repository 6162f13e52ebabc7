import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { startPeer, type Peer } from '@/tests/support/peer';
import { cachesUsable } from '@/lib/core/invalidation';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { connectedAgent, type TestAgent } from './testing';

// A second server process caches the agent too: pausing, changing the policy or deleting it
// through this process must hold there at once (PostgreSQL; the embedded database serves one process).
const embedded = inject('embedded');

describe.skipIf(embedded)('agent changes reach every server process at once (PostgreSQL)', () => {
  let peer: Peer;
  let p: TestPlatform;
  let h: Holder;
  let a: TestAgent;
  let ext: string;
  beforeAll(async () => {
    peer = await startPeer();
    p = await newPlatform();
    h = await customerWithAccounts(p, 'Pia Peer', ['USD']);
    await fund(p, h.accounts.USD, 1_000_000);
    ext = await externalAccount(p, h.customerId, 'USD', '321');
    a = await connectedAgent(p, h.customerId);
    const end = Date.now() + 10_000;
    while (!cachesUsable() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  }, 120_000);
  afterAll(() => peer?.stop());

  const bearer = () => `Bearer ${a.token}`;
  const send = () =>
    peer.request('POST', '/agents/me/transfer-out', bearer(), {
      source: { accountId: h.accounts.USD },
      destination: { accountId: ext },
      amount: 100,
    });
  // Used on the peer until it serves the agent from its caches.
  const warm = async () => {
    for (let i = 0; i < 3; i++) expect((await peer.request('GET', '/agents/me', bearer())).status).toBe(200);
  };

  it('paused, then resumed', async () => {
    await warm();
    expect((await send()).status).toBe(201);
    expect((await p.api.patch(`/agents/${a.id}`, { isPaused: true })).status).toBe(200);
    const refused = await send();
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.details.reason).toBe('AGENT_PAUSED');
    expect((await p.api.patch(`/agents/${a.id}`, { isPaused: false })).status).toBe(200);
    expect((await send()).status).toBe(201);
  });

  it('policy changed', async () => {
    await warm();
    expect((await p.api.patch(`/agents/${a.id}/policy`, { permissions: ['VIEW_TRANSACTIONS'] })).status).toBe(200);
    const refused = await send();
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.details.reason).toBe('PERMISSION_DENIED');
  });

  it('deleted', async () => {
    await warm();
    expect((await p.api.delete(`/agents/${a.id}`)).status).toBe(204);
    const gone = await peer.request('GET', '/agents/me', bearer());
    expect(gone.status, gone.text).toBe(401);
  });
});
