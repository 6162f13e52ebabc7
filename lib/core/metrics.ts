import cluster from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Corridor } from './context';

// An instance's Prometheus metrics (GET /metrics, app/metrics/route.ts). Two kinds:
// - what this process saw (requests, their latency, webhook attempts, Idempotency-Key replays and
//   conflicts, its database pool, its own CPU and memory): counted here, summed across a server's
//   processes by the cluster primary (scripts/cluster.mjs) so a scrape of any process sees all;
// - what the database holds (payments by type and status, ledger postings, due jobs, undelivered
//   webhook events): read from the database when scraped (at most every few seconds), so every
//   process and every server reports the same exact figures; the primary keeps one copy ('max'),
//   never a sum.
declare module './context' {
  interface CorridorParts {
    metrics: Metrics;
  }
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The database-held figures, read when scraped (lib/ops/metrics-probe.ts supplies them). */
export interface Figures {
  payments: { type: string; status: string; count: number }[];
  ledgerPostings: number;
  jobsDue: { kind: string; count: number }[];
  oldestDueJobSeconds: number;
  webhookEvents: { status: string; count: number }[];
  oldestUndeliveredWebhookSeconds: number;
  /** PROCESSING payments no rail has taken, by reason (lib/payments/rail-engine.ts). */
  paymentsWaitingForRail: { reason: string; count: number }[];
  /** Verifications in PENDING_MANUAL_REVIEW: waiting for a staff reviewer (no KYC vendor decides them). */
  verificationsWaitingForReview: number;
  pool: { total: number; idle: number; waiting: number } | null;
  /** This process's exchange rates (lib/fx/rates.ts ratesStatus); null when no provider is plugged. */
  rates?: { provider: string; ageSeconds: number | null; quotable: boolean } | null;
  /** This process's outside-world parties and whether a real provider serves each (lib/wiring.ts adapterStatuses). */
  adapters?: { party: string; connected: boolean }[];
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(opts: { process?: boolean } = {}) {
  const registry = new Registry();
  const registers = [registry];
  let probe: (() => Promise<Figures>) | undefined;
  let cached: { at: number; figures: Promise<Figures> } | undefined;
  // Several gauges are filled from one probe per scrape.
  const figures = () => {
    if (!probe) return null;
    if (!cached || Date.now() - cached.at > 5_000) {
      cached = { at: Date.now(), figures: probe() };
      cached.figures.catch(() => (cached = undefined));
    }
    return cached.figures;
  };
  const fromDatabase = (
    name: string,
    help: string,
    labelNames: string[],
    fill: (g: Gauge<string>, f: Figures) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      aggregator: 'max',
      async collect() {
        const f = await figures();
        if (!f) return;
        this.reset();
        fill(this, f);
      },
    });

  const metrics = {
    registry,
    requests: new Counter({
      name: 'corridor_http_requests_total',
      help: 'Requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    requestSeconds: new Histogram({
      name: 'corridor_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'corridor_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (DELIVERED, PENDING: will retry, FAILED: gave up)',
      labelNames: ['outcome'],
      registers,
    }),
    idempotency: new Counter({
      name: 'corridor_idempotency_keys_total',
      help: 'Requests under an Idempotency-Key that were replayed or refused as a conflict',
      labelNames: ['outcome'],
      registers,
    }),
    /** Records one housekeeping pass (lib/core/housekeeping.ts). */
    housekeeping: housekeepingMetrics(registers),
    /** Where the database-held figures come from (set once by the instance's builder). */
    setProbe(p: () => Promise<Figures>) {
      probe = p;
    },
  };
  databaseGauges(fromDatabase, registers, figures);
  processHeldGauges(registers, figures);
  if (opts.process) {
    collectDefaultMetrics({ register: registry });
    // In a cluster worker, the primary asks each worker for this registry when it aggregates.
    // prom-client installs the worker's listener for those requests only when an
    // AggregatorRegistry is constructed (lib/cluster.js, addListeners), not in setRegistries:
    // without one the primary's request went unanswered and every scrape fell back to the
    // answering process's own figures after 5 s (found by tests/several-servers.test.ts).
    if (cluster.isWorker) {
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([registry]);
    }
  }
  return metrics;
}

/**
 * Housekeeping passes (lib/core/housekeeping.ts): what they removed or folded, how long they ran,
 * and whether the last one left work behind (its budget ran out first). Returns the recorder.
 */
function housekeepingMetrics(registers: Registry[]) {
  const housekeepingRows = new Counter({
    name: 'corridor_housekeeping_rows_total',
    help: 'Rows removed (retention), folded (running totals) or tables maintained, by task',
    labelNames: ['task'],
    registers,
  });
  const housekeepingSeconds = new Histogram({
    name: 'corridor_housekeeping_pass_seconds',
    help: 'Wall time of a housekeeping pass, pauses included, by task',
    labelNames: ['task'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const housekeepingPasses = new Counter({
    name: 'corridor_housekeeping_passes_total',
    help: 'Housekeeping passes by task and how they ended (complete: nothing left; budget: time ran out first)',
    labelNames: ['task', 'outcome'],
    registers,
  });
  const housekeepingBacklog = new Gauge({
    name: 'corridor_housekeeping_backlog',
    help: "1 when the task's last pass in this process ended on its time budget with work left, else 0",
    labelNames: ['task'],
    registers,
    aggregator: 'max',
  });

  return (pass: { task: string; rows: number; ms: number; complete: boolean }) => {
    housekeepingRows.inc({ task: pass.task }, pass.rows);
    housekeepingSeconds.observe({ task: pass.task }, pass.ms / 1000);
    housekeepingPasses.inc({ task: pass.task, outcome: pass.complete ? 'complete' : 'budget' });
    housekeepingBacklog.set({ task: pass.task }, pass.complete ? 0 : 1);
  };
}

type FromDatabase = (
  name: string,
  help: string,
  labelNames: string[],
  fill: (g: Gauge<string>, f: Figures) => void,
) => Gauge<string>;

/** The gauges filled from the database-held figures, and this process's pool. */
function databaseGauges(
  fromDatabase: FromDatabase,
  registers: Registry[],
  figures: () => Promise<Figures> | null,
): void {
  fromDatabase(
    'corridor_payments',
    'Payments (transactions) by type and status, as the database holds them',
    ['type', 'status'],
    (g, f) => f.payments.forEach((p) => g.set({ type: p.type, status: p.status }, p.count)),
  );
  fromDatabase('corridor_ledger_postings', 'Ledger postings (balanced transfers) recorded', [], (g, f) =>
    g.set(f.ledgerPostings),
  );
  fromDatabase('corridor_jobs_due', 'Background jobs due and not finished, by kind', ['kind'], (g, f) =>
    f.jobsDue.forEach((j) => g.set({ kind: j.kind }, j.count)),
  );
  fromDatabase(
    'corridor_jobs_oldest_due_age_seconds',
    'How long the oldest due, unfinished job has waited (0: none)',
    [],
    (g, f) => g.set(f.oldestDueJobSeconds),
  );
  fromDatabase(
    'corridor_payments_waiting_for_rail',
    'Payments in PROCESSING (and refunds to a payer bank) that no payment rail has taken, by reason (e.g. "no payment rail connected")',
    ['reason'],
    (g, f) => f.paymentsWaitingForRail.forEach((w) => g.set({ reason: w.reason }, w.count)),
  );
  fromDatabase(
    'corridor_verifications_waiting_for_review',
    'Verifications in PENDING_MANUAL_REVIEW, waiting for a staff reviewer',
    [],
    (g, f) => g.set(f.verificationsWaitingForReview),
  );
  fromDatabase('corridor_webhook_events', 'Webhook events by delivery status', ['status'], (g, f) =>
    f.webhookEvents.forEach((w) => g.set({ status: w.status }, w.count)),
  );
  fromDatabase(
    'corridor_webhook_oldest_undelivered_age_seconds',
    'Age of the oldest webhook event still waiting for delivery (0: none)',
    [],
    (g, f) => g.set(f.oldestUndeliveredWebhookSeconds),
  );
  new Gauge({
    name: 'corridor_db_pool_connections',
    help: "This process's database connections: in use, idle, and requests waiting for one",
    labelNames: ['state'],
    registers,
    async collect() {
      const f = await figures();
      this.reset();
      if (!f?.pool) return;
      this.set({ state: 'in_use' }, f.pool.total - f.pool.idle);
      this.set({ state: 'idle' }, f.pool.idle);
      this.set({ state: 'waiting' }, f.pool.waiting);
    },
  });
}

/** The gauges of what each process holds itself: its exchange rates and its adapters. */
function processHeldGauges(registers: Registry[], figures: () => Promise<Figures> | null): void {
  // Rates are held per process (each refreshes its own, lib/fx/rates-http.ts): across a cluster the
  // oldest figures and any process unable to quote are what matter, hence 'max' and 'min'.
  new Gauge({
    name: 'corridor_fx_rates_age_seconds',
    help: "Age of the exchange rates this process quotes from, since the provider's timestamp (absent: none held)",
    labelNames: ['provider'],
    registers,
    aggregator: 'max',
    async collect() {
      const f = await figures();
      this.reset();
      if (f?.rates && f.rates.ageSeconds !== null) this.set({ provider: f.rates.provider }, f.rates.ageSeconds);
    },
  });
  new Gauge({
    name: 'corridor_fx_rates_quotable',
    help: 'Whether this process can price a quote now: 1, or 0 with no rates or only expired ones',
    labelNames: ['provider'],
    registers,
    aggregator: 'min',
    async collect() {
      const f = await figures();
      this.reset();
      if (f?.rates) this.set({ provider: f.rates.provider }, f.rates.quotable ? 1 : 0);
    },
  });
  // Adapters are chosen per process at start-up: a cluster is only as connected as its least
  // connected process, hence 'min'.
  new Gauge({
    name: 'corridor_adapter_connected',
    help: 'Whether a real provider serves the party: 1, or 0 when it is simulated (sandbox) or not connected',
    labelNames: ['party'],
    registers,
    aggregator: 'min',
    async collect() {
      const f = await figures();
      this.reset();
      for (const a of f?.adapters ?? []) this.set({ party: a.party }, a.connected ? 1 : 0);
    },
  });
}

/** The metrics of the instance the current work runs under, or none (a script without one). */
export function metricsOf(corridor: Corridor | undefined): Metrics | undefined {
  return corridor?.metrics;
}
