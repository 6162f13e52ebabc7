// The soak's load: `concurrency` clients each taking the next operation and sending it until
// it has a final answer, some of them with a duplicate under the same Idempotency-Key:
//   dup-concurrent      the same body, sent at the same moment as the original
//   dup-later           the same body, sent again a little after the original was answered
//   changed-concurrent  another body, sent while the original is (most likely) still running
//   changed-later       another body, sent after the original was answered
//   changed-first       another body, sent 100 ms before the original (only during the row lock:
//                       the other body holds the key while the original's attempts arrive)
// Meanwhile a scheduler crashes and restarts the server and holds a database row lock, at fixed
// points of the run's progress. Every attempt of every sender is recorded on the operation.
import pg from 'pg';
import { parseBody } from './http.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const DUP_KINDS = ['dup-concurrent', 'dup-later', 'changed-concurrent', 'changed-later'];

export class Load {
  constructor({ client, ops, rng, total, concurrency, dupRate, dupKinds, log }) {
    Object.assign(this, { client, ops, rng, total, concurrency, dupRate, dupKinds, log });
    this.started = 0;
    this.finished = 0;
    this.inflight = 0;
    this.planned = 0;
    this.all = [];
    this.later = [];
    this.events = [];
    this.stopped = false; // set when a scheduled event failed: the workers take no new operations
  }

  async send(op, variant, role) {
    const v = op.variants[variant];
    const sender = { variant, role, attempts: [], final: null };
    op.senders.push(sender);
    const client = op.client ?? this.client;
    sender.final = await client.untilFinal(v.method, v.path, { key: op.key, body: v.body, attempts: sender.attempts });
    return sender;
  }

  /** Runs one operation with its duplicate plan; resolves when every sender has its answer. */
  async run(op, plan) {
    op.plan = plan;
    this.inflight++;
    const jitter = () => sleep(Math.floor(this.rng() * 25));
    // changed-first: the other body goes first and holds the key, the original follows.
    const original =
      plan === 'changed-first' ? sleep(100).then(() => this.send(op, 'a', 'original')) : this.send(op, 'a', 'original');
    const dup =
      plan === 'dup-concurrent'
        ? jitter().then(() => this.send(op, 'a', plan))
        : plan === 'changed-concurrent'
          ? jitter().then(() => this.send(op, 'b', plan))
          : plan === 'changed-first'
            ? this.send(op, 'b', plan)
            : null;
    const [first] = await Promise.all([original, dup]);
    if (plan === 'dup-later' || plan === 'changed-later')
      this.later.push({
        op,
        variant: plan === 'dup-later' ? 'a' : 'b',
        role: plan,
        due: Date.now() + this.rng() * 3000,
      });
    // The next operations build on what the client was told (a quote to execute, a transfer to cancel).
    const winner = op.senders.find((s) => s.final && s.final.status < 300) ?? first;
    if (winner.final && winner.final.status < 300) this.ops.answered(op, parseBody(winner.final));
    this.finished++;
    this.inflight--;
  }

  /** Exactly `dupRate` of the operations get a duplicate, the kinds taken in turn. */
  plan(i) {
    if (Math.floor((i + 1) * this.dupRate) === Math.floor(i * this.dupRate)) return null;
    return this.dupKinds[this.planned++ % this.dupKinds.length];
  }

  async laterOne(now = Date.now()) {
    const i = this.later.findIndex((l) => l.due <= now);
    if (i < 0) return false;
    const [l] = this.later.splice(i, 1);
    await this.send(l.op, l.variant, l.role);
    return true;
  }

  async worker() {
    for (;;) {
      if (this.stopped) return;
      if (await this.laterOne()) continue;
      if (this.started >= this.total) return;
      const i = this.started++;
      const op = this.ops.next();
      this.all.push(op);
      await this.run(op, this.plan(i));
    }
  }

  /**
   * Runs the whole load and the scheduled events; then sends the remaining later duplicates. An
   * event that fails (a server that does not come back after a kill) ends the run at once with
   * that error — never as an unobserved rejection, which would end the process without cleanup.
   */
  async runAll(schedule) {
    let failed;
    const failure = new Promise((_, reject) => (failed = reject));
    failure.catch(() => {});
    const scheduler = (async () => {
      for (const ev of schedule) {
        while (this.started < ev.at * this.total && !this.stopped) await sleep(20);
        if (this.stopped) return;
        await ev.run(this);
      }
    })().catch((err) => {
      this.stopped = true;
      failed(new Error(`soak event failed: ${err.message}`, { cause: err }));
    });
    await Promise.race([Promise.all(Array.from({ length: this.concurrency }, () => this.worker())), failure]);
    await Promise.race([scheduler, failure]);
    await Promise.race([Promise.all(this.later.splice(0).map((l) => this.send(l.op, l.variant, l.role))), failure]);
  }
}

/** A crash: SIGKILL the server's process group while clients keep retrying, then restart it. */
export function crashEvent(server, n) {
  return {
    name: `kill ${n}`,
    async run(load) {
      const inFlight = load.inflight;
      const t = Date.now();
      await server.kill();
      const restartMs = await server.start();
      load.events.push({ kind: 'kill', n, server: server.base, at: t, inFlight, downMs: Date.now() - t, restartMs });
      load.log(
        `kill ${n} (${server.base}): SIGKILL with ${inFlight} operations in flight; answering again after ${Date.now() - t} ms`,
      );
    },
  };
}

// Errors of the soak's own lock connection worth another try: deadlock (its lock met a service
// statement's in another order), serialization failure, lock not available.
const LOCK_RETRY_CODES = new Set(['40P01', '40001', '55P03']);
const LOCK_ATTEMPTS = 8;

/**
 * Takes the ledger rows of one internal account FOR UPDATE on a connection of its own, in id
 * order — the order the service locks ledger rows in (corridor_apply_deltas) — so it queues behind
 * a service statement instead of deadlocking with it; a deadlock or serialization failure anyway
 * (a service transaction locking across statements) is rolled back and retried. Returns the
 * connection with its transaction open, or throws after LOCK_ATTEMPTS.
 */
export async function lockRows(dbUrl, accountId, log) {
  const conn = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 30_000 });
  // A broken connection must not crash the soak: the next query on it fails, and is handled.
  conn.on('error', (err) => log(`lock: connection error: ${err.message}`));
  await conn.connect();
  for (let attempt = 1; ; attempt++) {
    try {
      await conn.query('BEGIN');
      const locked = await conn.query(
        'SELECT "id" FROM "LedgerAccount" WHERE "internalAccountId" = $1 ORDER BY "id" FOR UPDATE',
        [accountId],
      );
      return { conn, rowCount: locked.rowCount, attempts: attempt };
    } catch (err) {
      await conn.query('ROLLBACK').catch(() => {});
      if (!LOCK_RETRY_CODES.has(err.code) || attempt >= LOCK_ATTEMPTS) {
        await conn.end().catch(() => {});
        throw err;
      }
      log(`lock: ${err.code} ${err.message} (attempt ${attempt}); retrying`);
      await sleep(100 * attempt + Math.floor(Math.random() * 100));
    }
  }
}

/** Ends the lock's transaction and connection; what went wrong is returned, never thrown. */
export async function unlock(conn) {
  let problem = null;
  await conn.query('ROLLBACK').catch((err) => (problem = `ROLLBACK failed: ${err.message}`));
  await conn.end().catch(() => {});
  return problem;
}

/**
 * A row lock held past the 15 s transaction timeout: from its own connection the soak locks the
 * ledger rows of one internal account (FOR UPDATE) and keeps them for `seconds`, while keyed
 * operations against that account are sent through the service by impatient clients (`client`:
 * they give an attempt up after a few seconds and retry it while the first still waits); then
 * ROLLBACK. A lock that cannot be taken (see lockRows) is reported, not thrown: the run goes on
 * without it and says so.
 */
export function lockEvent({ dbUrl, customer, seconds, client }) {
  return {
    name: 'lock',
    async run(load) {
      let held;
      try {
        held = await lockRows(dbUrl, customer.usd, load.log);
      } catch (err) {
        const reason = `${err.code ?? 'error'} ${err.message}`;
        load.events.push({ kind: 'lock', account: customer.usd, failed: reason, ops: [] });
        load.log(`lock: could not lock ${customer.usd}'s ledger rows (${reason}); going on without the lock`);
        return;
      }
      const t = Date.now();
      load.log(`lock: ${held.rowCount} ledger rows of ${customer.usd} locked for ${seconds} s`);
      // An execution is a single statement outside any transaction: it waits on the lock, unbounded.
      const kinds = ['transfer-out', 'transfer-out', 'fund', 'fund', 'quote-now', 'quote-now', 'quote', 'execute'];
      const runs = kinds.map((kind, i) => {
        const op = load.ops.next({ kind, customer });
        op.duringLock = true;
        op.client = client;
        load.all.push(op);
        const plans = { 0: 'dup-concurrent', 4: 'changed-concurrent', 5: 'changed-first' };
        return load.run(op, plans[i] ?? null);
      });
      await sleep(seconds * 1000);
      const problem = await unlock(held.conn);
      const heldMs = Date.now() - t;
      if (problem) load.log(`lock: ${problem} (the server ends the transaction with the connection)`);
      await Promise.all(runs);
      load.events.push({
        kind: 'lock',
        at: t,
        heldMs,
        attempts: held.attempts,
        problem,
        account: customer.usd,
        ops: load.all.filter((o) => o.duringLock),
      });
      load.log(`lock: released after ${heldMs} ms; its ${kinds.length} operations answered`);
    },
  };
}
