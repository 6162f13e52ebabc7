import { log } from './core/log';
import * as platforms from './platform/repository';
import { createPlatform } from './platform/service';
import * as tokens from './tokens/service';
import * as tokenRepo from './tokens/repository';
import { hashSecret, MIN_CHOSEN_SECRET_LENGTH, SECRET_HASH_VERSION, secretMatches } from './core/crypto/secrets';
import { now } from './core/clock';
import { createWorker } from './worker';
import { currentCorridor, within, type Corridor, type CorridorConfig } from './core/context';
import { createMetrics } from './core/metrics';
import { readFigures } from './ops/metrics-probe';
import { ratesSource, ratesStatus } from './fx/rates';
import { createDatabase, db, disconnectDb, type Database } from './core/db';
import { createInstanceLock, releaseInstance } from './core/instance';
import { createInvalidation, stopListener } from './core/invalidation';
import type { Plug } from './core/ports';
import { createJobRegistry } from './jobs/queue';
import { createThrottleState } from './tokens/throttle';
import { adapterStatuses, adapterSummary, portsFor, registerWork } from './wiring';
import { API_BASE } from './core/mode';
import { publicBaseUrl } from './core/mode';
import { ensureFirstStaff } from './staff/bootstrap';

export class BootError extends Error {}

export interface CorridorOptions extends Partial<CorridorConfig> {
  /** Implementations that replace the mode's own (tests standing in for a provider). */
  ports?: Plug[];
  /**
   * Another instance's database client, shared instead of opening a pool of its own (the
   * embedded database runs one session, which one pool must own: a second would drop the first's
   * prepared statements). The instance that made it closes it.
   */
  database?: Database;
  /** The worker's lease and handler time, and its bookkeeping (a test may inject failures). */
  jobs?: Parameters<typeof createJobRegistry>[0];
  /** Also export this process's CPU, memory and event-loop metrics (the app's own instance). */
  processMetrics?: boolean;
}

/** A Corridor instance: everything it holds, and its worker. */
export type CorridorInstance = Corridor & {
  /** Starts the instance's background worker (CORRIDOR_WORKER_INTERVAL_MS apart). */
  start(intervalMs?: number): void;
  /** Stops the worker and closes what the instance holds open: its lock, listener and database. */
  close(): Promise<void>;
  /** Runs `fn` under this instance. */
  run<T>(fn: () => T): T;
};

/**
 * Builds one Corridor instance: its configuration (from `options`, else the environment), its
 * database client, its ports with the adapters of its mode chosen now, its job registry (kinds,
 * batch handlers, sweeps, pruners), caches, cache invalidation, instance key, outbox and
 * authentication-refusal state. Work reaches it through the actor context (lib/core/context.ts);
 * several instances live side by side in one process without sharing any of it.
 */
export function createCorridor(options: CorridorOptions = {}, env = process.env): CorridorInstance {
  const shared = options.database;
  const config: CorridorConfig = {
    mode: options.mode ?? (env.CORRIDOR_MODE === 'production' ? 'production' : 'sandbox'),
    databaseUrl: shared?.config.databaseUrl ?? options.databaseUrl ?? env.DATABASE_URL ?? '',
    embedded: shared?.config.embedded ?? options.embedded ?? env.CORRIDOR_EMBEDDED === '1',
  };
  const jobs = createJobRegistry(options.jobs);
  const pruners = new Map();
  registerWork(jobs, pruners);
  const parts = {
    config,
    database: shared ?? createDatabase(config),
    ports: new Map([...portsFor(config.mode, env), ...(options.ports ?? [])]),
    caches: new Map(),
    invalidation: createInvalidation(config),
    instance: createInstanceLock(config),
    jobs,
    pruners,
    outbox: [],
    authThrottle: createThrottleState(),
    metrics: createMetrics({ process: options.processMetrics }),
  } satisfies Corridor;
  const corridor: CorridorInstance = Object.assign(parts, {
    start: (intervalMs?: number) => worker.start(intervalMs),
    run: <T>(fn: () => T): T => within(corridor, fn),
    close: async () => {
      await worker.stop();
      await within(corridor, () => releaseInstance(corridor.instance));
      await stopListener(corridor.invalidation);
      if (!shared) await disconnectDb(corridor.database);
    },
  });
  const worker = createWorker(corridor);
  corridor.metrics.setProbe(() =>
    within(corridor, async () => {
      const wallNow = new Date();
      const figures = await readFigures(db(), corridor.database.pool, wallNow);
      return {
        ...figures,
        rates: corridor.ports.has(ratesSource.name) ? ratesStatus(ratesSource.get(), wallNow) : null,
        adapters: adapterStatuses(corridor.ports).map(({ party, connected }) => ({ party, connected })),
      };
    }),
  );
  return corridor;
}

/**
 * The bootstrap credentials the environment asks for, if any. An operator-chosen secret shorter
 * than MIN_CHOSEN_SECRET_LENGTH is refused: it would guard every permission of the platform.
 * (scripts/start.mjs applies the same rule before it starts anything.)
 */
export function bootstrapCredentials(env: Record<string, string | undefined> = process.env) {
  const clientId = env.CORRIDOR_CLIENT_ID;
  const clientSecret = env.CORRIDOR_CLIENT_SECRET;
  if (clientSecret && clientSecret.length < MIN_CHOSEN_SECRET_LENGTH) {
    throw new BootError(
      `CORRIDOR_CLIENT_SECRET is ${clientSecret.length} characters long; it must have at least ${MIN_CHOSEN_SECRET_LENGTH} ` +
        '(for example `openssl rand -base64 32`), or leave it unset to have a random secret generated',
    );
  }
  if ((clientId && !clientSecret) || (!clientId && clientSecret)) {
    log().warn('CORRIDOR_CLIENT_ID and CORRIDOR_CLIENT_SECRET must be set together; ignoring them');
    return undefined;
  }
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

// Server start (called from instrumentation.ts with the process's instance): make sure a sandbox
// platform exists, print how to reach it, and start the instance's worker — unless
// CORRIDOR_WORKER=off (this server only serves; a worker runs elsewhere). CORRIDOR_WORKER=only runs
// the worker and serves nothing but health, readiness and metrics (scripts/http-edge.mjs).
export function boot(corridor: CorridorInstance): Promise<void> {
  return within(corridor, async () => {
    await greet();
    if (process.env.CORRIDOR_WORKER !== 'off') corridor.start();
  });
}

async function greet(): Promise<void> {
  const known = bootstrapCredentials();
  const baseUrl = publicBaseUrl();

  let platform = await platforms.findFirst();
  const lines: string[] = [];
  if (!platform) {
    const id = await createPlatform({ name: 'Sandbox platform' }, db());
    platform = await platforms.findFirst();
    const t = await tokens.issue(id, 'Bootstrap token', ['VIEW', 'TRANSACT', 'MANAGE'], known, db());
    // The one place a secret is printed: generated at first start, shown once to the operator.
    lines.push('Sandbox platform created. API credentials (all permissions) — the secret is shown only now:');
    lines.push(`  client id:     ${t.clientId}`);
    lines.push(`  client secret: ${known ? '(from CORRIDOR_CLIENT_SECRET)' : t.clientSecret}`);
  } else if (known) {
    // Automation asked for known credentials: make sure they work on the existing platform.
    const existing = await tokenRepo.findForAuth(known.clientId);
    if (!existing)
      await tokens.issue(
        platform.id,
        'Bootstrap token (from environment)',
        ['VIEW', 'TRANSACT', 'MANAGE'],
        known,
        db(),
      );
    else if (
      existing.secretHashVersion !== SECRET_HASH_VERSION ||
      !secretMatches(known.clientSecret, existing.secretHash, existing.secretHashVersion)
    ) {
      await tokenRepo.replaceSecretHash(existing.id, hashSecret(known.clientSecret), SECRET_HASH_VERSION, now());
    }
    lines.push(`API credentials: client id ${known.clientId} (secret from CORRIDOR_CLIENT_SECRET)`);
  } else {
    lines.push('API credentials were printed at first start (or create more with POST /tokens).');
  }
  if (platform) lines.push(...(await ensureFirstStaff(platform.id, new URL(baseUrl).hostname)));
  lines.push(`  API base URL:  ${baseUrl}${API_BASE}`);
  lines.push(`  OpenAPI:       ${baseUrl}${API_BASE}/openapi.json`);
  lines.push(`  API reference: ${baseUrl}/docs`);
  lines.push(`  Console:       ${baseUrl}/console`);
  lines.push(`  Wallet:        ${baseUrl}/wallet`);
  lines.push(`Adapters (${currentCorridor().config.mode} mode):`, ...adapterSummary(currentCorridor().ports));
  console.log(`\n[corridor] ${lines.join('\n[corridor] ')}\n`);
}
