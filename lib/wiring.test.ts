import { describe, expect, it } from 'vitest';
import { adapterStatuses, adapterSummary, portsFor } from './wiring';

// Issue 25 ("start-up says what is connected"): the start-up summary names every outside party,
// in both modes — a production instance with nothing configured lists each as NOT CONNECTED with
// what happens meanwhile, instead of leaving out the ones whose port is empty or undescribed.
const PARTIES = [
  'payment rail',
  'account-name check',
  'KYC/KYB',
  'liveness (factor resets)',
  'liveness (wallet ownership)',
  'exchange rates',
  'stablecoin provider',
  'card issuing',
  'card authorizations',
  'email and SMS',
];

const lineOf = (lines: string[], party: string) => lines.find((l) => l.startsWith(`  ${party}: `));

describe('the start-up adapter summary', () => {
  it('names every party in production with an empty environment, each NOT CONNECTED with the reason', () => {
    const lines = adapterSummary(new Map(portsFor('production', {})));
    for (const party of PARTIES) {
      const line = lineOf(lines, party);
      expect(line, `${party} in:\n${lines.join('\n')}`).toBeDefined();
      expect(line).toContain('(NOT CONNECTED) — ');
    }
    expect(lines).toHaveLength(PARTIES.length);
    // What happens without each, and where to read how to connect it.
    expect(lineOf(lines, 'KYC/KYB')).toMatch(/PENDING_MANUAL_REVIEW/);
    expect(lineOf(lines, 'liveness (factor resets)')).toMatch(/refused/);
    expect(lineOf(lines, 'liveness (wallet ownership)')).toMatch(/WALLET_SIGNATURE/);
    expect(lineOf(lines, 'card issuing')).toMatch(/501 NOT_IMPLEMENTED/);
    expect(lineOf(lines, 'card authorizations')).toMatch(/CORRIDOR_LITHIC_ASA_SECRET/);
    expect(lineOf(lines, 'stablecoin provider')).toMatch(/cannot be verified/);
    expect(lineOf(lines, 'account-name check')).toMatch(/UNSUPPORTED/);
    for (const party of PARTIES) expect(lineOf(lines, party)).toMatch(/docs\/|CORRIDOR_/);
  });

  it('names every party in sandbox, simulated', () => {
    const lines = adapterSummary(new Map(portsFor('sandbox', {})));
    for (const party of PARTIES) expect(lineOf(lines, party), `${party} in:\n${lines.join('\n')}`).toBeDefined();
    expect(lines).toHaveLength(PARTIES.length);
    for (const party of PARTIES.filter((p) => p !== 'card authorizations'))
      expect(lineOf(lines, party)).toContain(': sandbox (simulated)');
  });

  it('says connected for what the environment connects', () => {
    const statuses = adapterStatuses(
      new Map(portsFor('production', { CORRIDOR_LITHIC_ASA_SECRET: 'whsec_c2VjcmV0LWZvci10ZXN0cw==' })),
    );
    expect(statuses.find((s) => s.party === 'card authorizations')).toMatchObject({ connected: true });
    expect(statuses.filter((s) => s.connected).map((s) => s.party)).toEqual(['card authorizations']);
  });
});
