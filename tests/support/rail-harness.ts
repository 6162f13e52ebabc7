import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { POST as callbackRoute } from '@/app/rails/callbacks/route';
import { currentCorridor, type Corridor } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { httpRail } from '@/lib/payments/rail-http';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { newPlatform, type TestPlatform } from './api';
import { runDueJobs } from '@/lib/jobs/queue';
import * as transactions from '@/lib/payments/transactions/service';
import type { StaffActor } from '@/lib/staff/roles';
import * as staff from '@/lib/staff/service';
import { expectLedgerBalanced } from './ledger';
import { switchMode } from './mode';
import { customerWithAccounts, externalAccount, fund, type Holder } from './money';

// A production instance wired to the bring-your-own-rail adapter over real HTTP on loopback:
// Corridor POSTs signed instructions to the reference receiver (examples/rail-receiver.mjs),
// which answers with what `carry` says and reports outcomes to Corridor's /rails/callbacks route
// (served here by node:http). Used by lib/payments/rail-http.test.ts and rail-transfers.test.ts.
export interface Receiver {
  server: http.Server;
  instructions: Map<string, { instruction: Record<string, unknown>; answer: Record<string, unknown> }>;
  report(
    reference: string,
    status: string,
    opts?: { failureReason?: string; eventId?: string; callbackUrl?: string },
  ): Promise<{ status: number; body: Record<string, unknown> | null }>;
  received(): number;
}
export type Carry = (i: Record<string, unknown>) => Promise<Record<string, unknown>>;

const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

export interface RailHarness {
  p: TestPlatform;
  h: Holder;
  /** The customer's EUR bank account (quote payouts) and USD bank account (transfers, pulls). */
  dest: string;
  usdBank: string;
  receiver: Receiver;
  corridorKeys: ReturnType<typeof pair>;
  receiverKeys: ReturnType<typeof pair>;
  callbackUrl: string;
  /** How the receiver answers the next instructions (reset to ACCEPTED after each test). */
  carry: Carry;
  plugHttpRail(url?: string): void;
  within<T>(fn: () => Promise<T>): Promise<T>;
  railState(id: string): Promise<{ status: string; railStatus: string | null; railNote: string | null }>;
  eventTypes(id: string): Promise<string[]>;
  /** Runs the platform's due jobs in production. */
  work(): Promise<number>;
  /**
   * Quotes `amount` USD from the USD bank account (a direct pull) to the EUR bank account (over `destination.paymentRail` if given), executes
   * it and runs the worker (the PULL goes to the rail).
   */
  pullQuote(
    amount?: number,
    destination?: { paymentRail?: string },
  ): Promise<{ id: string; quoteId: string; receiving: bigint }>;
}

/** The ledger transfers of one transaction, and how many ledger accounts it leaves non-zero. */
export async function ledgerOf(id: string) {
  const transfers = await db().ledgerTransfer.findMany({
    where: { transactionId: id },
    include: { entries: true },
    orderBy: { createdAt: 'asc' },
  });
  const net = new Map<string, bigint>();
  for (const e of transfers.flatMap((t) => t.entries))
    net.set(e.ledgerAccountId, (net.get(e.ledgerAccountId) ?? 0n) + e.amount);
  return { kinds: transfers.map((t) => t.kind), nonZero: [...net.values()].filter((v) => v !== 0n).length };
}

/** The net of a transaction's postings on the platform's ledger account named `name` (e.g. PAYER_RECEIVABLE). */
export async function netOn(id: string, name: string): Promise<bigint> {
  const entries = await db().ledgerEntry.findMany({ where: { transfer: { transactionId: id } } });
  return entries.filter((e) => e.ledgerAccountId.includes(`/${name}/`)).reduce((sum, e) => sum + e.amount, 0n);
}

let members = 0;
/** A new staff member of the platform with `role`, signed in: the actor the staff actions take. */
export async function staffMember(platformId: string, role: 'viewer' | 'operator'): Promise<StaffActor> {
  const email = `${role}-${process.pid}-${Date.now()}-${++members}@rail-staff.example`;
  const password = 'a-long-enough-password';
  await staff.createUser(platformId, { email, role, password }, db());
  return (await staff.actorOf((await staff.signIn(email, password)).sessionId))!;
}

/** The ids of the platform's payments in the console's "refunds needing staff" list. */
export async function staffList(platformId: string): Promise<string[]> {
  return (await transactions.list(platformId, { rail: 'STAFF' }, 100, 'desc')).data.map((t) => t.id);
}

async function pullQuote(r: RailHarness, amount: number, destination: { paymentRail?: string }) {
  const q = await r.p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: r.usdBank },
    destination: { destinationType: 'ACCOUNT', accountId: r.dest, ...destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expect(q.status, q.text).toBe(201);
  const ex = await r.p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  await r.work();
  return {
    id: q.body.transactionId as string,
    quoteId: q.body.id as string,
    receiving: BigInt(q.body.totalReceivingAmount),
  };
}

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

/** Registers the suite's hooks; the returned object is filled in by `beforeAll`. */
export function railHarness(): RailHarness {
  const corridorKeys = pair();
  const receiverKeys = pair();
  let production: Corridor;
  let corridorServer: http.Server;
  let railUrl = '';
  const r = {
    corridorKeys,
    receiverKeys,
    carry: (async () => ({ status: 'ACCEPTED' })) as Carry,
    plugHttpRail(url = railUrl) {
      paymentRail.set(
        productionPaymentRail(
          httpRail({
            url,
            signingKey: corridorKeys.privateKey,
            callbackKey: receiverKeys.publicKey,
            callbackUrl: r.callbackUrl,
            timeoutMs: 2_000,
          }),
        ),
      );
    },
    within: <T>(fn: () => Promise<T>) => (production as Corridor & { run<R>(f: () => R): R }).run?.(fn) ?? fn(),
    railState: (id: string) =>
      db().transaction.findUniqueOrThrow({ where: { id }, select: { status: true, railStatus: true, railNote: true } }),
    eventTypes: async (id: string) =>
      (await eventsOf(r.p.platformId)).filter((e) => (e.body.data as { id?: string }).id === id).map((e) => e.type),
    work: () => r.within(() => runDueJobs({ platformId: r.p.platformId })),
    pullQuote: (amount = 5_000, destination = {}) => pullQuote(r, amount, destination),
  } as RailHarness;

  beforeAll(async () => {
    // Set up in sandbox (funding is a sandbox operation), then move money in production.
    r.p = await newPlatform();
    r.h = await customerWithAccounts(r.p, 'Rail Sender', ['USD']);
    await fund(r.p, r.h.accounts.USD, 10_000_000);
    r.dest = await externalAccount(r.p, r.h.customerId, 'EUR', '123');
    r.usdBank = await externalAccount(r.p, r.h.customerId, 'USD', '321');
    switchMode('production');
    production = currentCorridor();
    const mod = (await import(pathToFileURL(path.resolve('examples/rail-receiver.mjs')).href)) as {
      createReceiver(o: { corridorPublicKey: KeyObject; privateKey: KeyObject; carry: Carry }): Receiver;
    };
    r.receiver = mod.createReceiver({
      corridorPublicKey: corridorKeys.publicKey,
      privateKey: receiverKeys.privateKey,
      carry: (i) => r.carry(i),
    });
    railUrl = `${await listen(r.receiver.server)}/instructions`;
    // Corridor's callback route, served over HTTP as the server would.
    corridorServer = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      });
      const answer = await r.within(() => callbackRoute(request));
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
    r.callbackUrl = `${await listen(corridorServer)}/rails/callbacks`;
    r.plugHttpRail();
  });

  afterAll(async () => {
    await new Promise((done) => r.receiver.server.close(done));
    await new Promise((done) => corridorServer.close(done));
  });
  afterEach(async () => {
    r.carry = async () => ({ status: 'ACCEPTED' });
    await expectLedgerBalanced(r.p.platformId);
  });
  return r;
}
