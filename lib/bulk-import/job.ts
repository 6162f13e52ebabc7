import { addSeconds, now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { DomainError } from '../core/errors';
import { recordEvent } from '../events/outbox';
import { MAX_ATTEMPTS, enqueue, type JobHandler } from '../jobs/queue';
import * as customers from '../customers/service';
import * as customersRepo from '../customers/repository';
import type { FileRow } from './file';
import { fromApiError, internalError, toCustomerCreate, type RowError } from './rows';
import * as repo from './repository';
import { IMPORT_JOB_KIND, present } from './service';

// The import job. A run takes the file's lease, settles rows in file order, each on its own
// (customers are made by the one customers.create(), so a row is validated and created exactly
// as POST /customers would), and after a bounded amount of work hands over to a fresh queue job,
// so no run outlives the queue's stale-job window. When no row is left it completes the import
// and records BULK_UPLOAD.COMPLETED or BULK_UPLOAD.FAILED in that same transaction.
//
// Restart safety: a row is marked CREATING (committed) before create() runs and settled in a
// later transaction. If the worker dies in between, the next run finds it CREATING and checks
// whether an active customer with the row's platformCustomerId appeared since the claim (the
// claim remembered which one, if any, held it before): then create() had committed and the row
// is adopted, not created again. Active platformCustomerIds are unique, so even a run that
// guessed wrong could not create a second customer; it would only see CONFLICT.
export const tuning = {
  /** Rows read per query. */
  batchSize: 50,
  /** Rows one run settles before handing over to a continuation job. */
  rowsPerRun: 500,
  /** Wall time one run works before handing over. */
  runBudgetMs: 20_000,
  /** A run's hold on the file (platform clock), renewed with every row; shorter than the queue's 5-minute stale window. */
  leaseSeconds: 120,
  /** Attempts at one row that ended in an unexpected error before the row is failed and skipped. */
  maxRowAttempts: 3,
};

type Outcome = { customerId: string } | { error: RowError };

const asFileRow = (r: repo.ImportRowRecord): FileRow => ({ rowNumber: r.rowNumber, data: r.data as FileRow['data'] });

async function continueLater(platformId: string, importId: string, runAt: Date | undefined, tx: Tx): Promise<void> {
  await enqueue(tx, { platformId, kind: IMPORT_JOB_KIND, payload: { importId }, runAt });
}

/** Settles a row if this run still holds the file; false when another run has taken over. */
function settle(importId: string, owner: string, rowNumber: number, outcome: Outcome): Promise<boolean> {
  return transaction(async (tx) => {
    const at = now();
    if (!(await repo.renewLease(importId, owner, at, addSeconds(at, tuning.leaseSeconds), tx))) return false;
    await repo.settleRow(importId, rowNumber, outcome, at, tx);
    return true;
  });
}

/** An active customer made by an interrupted earlier attempt at this row, if there is one. */
async function customerOfInterruptedAttempt(
  platformId: string,
  rec: repo.ImportRowRecord,
  tx: Tx,
): Promise<string | null> {
  if (rec.status !== 'CREATING' || !rec.platformCustomerId) return null;
  const current = await customersRepo.findActiveByPlatformCustomerId(platformId, rec.platformCustomerId, tx);
  return current && current.id !== rec.priorCustomerId ? current.id : null;
}

/** Processes one row; false when this run lost the file to another run and must stop. */
async function processRow(
  platformId: string,
  importId: string,
  owner: string,
  rec: repo.ImportRowRecord,
): Promise<boolean> {
  const row = asFileRow(rec);
  const mapped = toCustomerCreate(row);
  if ('error' in mapped) return settle(importId, owner, row.rowNumber, { error: mapped.error });

  const adopted = await customerOfInterruptedAttempt(platformId, rec, db());
  if (adopted) return settle(importId, owner, row.rowNumber, { customerId: adopted });
  if (rec.status === 'CREATING' && rec.attempts >= tuning.maxRowAttempts) {
    return settle(importId, owner, row.rowNumber, {
      error: internalError(row, `The customer could not be created after ${rec.attempts} attempts`),
    });
  }

  const claimed = await transaction(async (tx) => {
    const at = now();
    if (!(await repo.renewLease(importId, owner, at, addSeconds(at, tuning.leaseSeconds), tx))) return false;
    const prior = await customersRepo.findActiveByPlatformCustomerId(platformId, mapped.input.platformCustomerId!, tx);
    return repo.claimRow(importId, row.rowNumber, rec.attempts, prior?.id ?? null, at, tx);
  });
  if (!claimed) return false;

  let outcome: Outcome;
  try {
    outcome = { customerId: (await customers.create(platformId, mapped.input)).id };
  } catch (err) {
    // Anything but an DomainError is not about the row's data: the job is retried and the row,
    // left CREATING, is looked at again (adopted, retried, or failed after maxRowAttempts).
    if (!(err instanceof DomainError)) throw err;
    outcome = { error: fromApiError(row, err) };
  }
  return settle(importId, owner, row.rowNumber, outcome);
}

/** Ends the import once every row is settled, with its webhook event in the same transaction. */
async function complete(platformId: string, importId: string, owner: string): Promise<void> {
  await transaction(async (tx) => {
    const job = await repo.lock(importId, tx);
    if (!job || job.leaseOwner !== owner || job.status !== 'PROCESSING') return;
    if ((await repo.countUnsettled(importId, tx)) > 0) return;
    // As in the reference's example, a file of which no row could be created is FAILED.
    const status = job.total > 0 && job.successful === 0 ? 'FAILED' : 'COMPLETED';
    const done = await repo.finish(importId, status, null, now(), tx);
    await recordEvent(tx, platformId, `BULK_UPLOAD.${status}`, await present(done, tx));
  });
}

/**
 * The queue is giving up on the job: every unsettled row is settled (adopted when its customer
 * exists, failed otherwise), and the import ends FAILED with its event, so nobody waits forever.
 */
async function abandon(platformId: string, importId: string, reason: string): Promise<void> {
  await transaction(
    async (tx) => {
      const job = await repo.lock(importId, tx);
      if (!job || (job.status !== 'PENDING' && job.status !== 'PROCESSING')) return;
      const at = now();
      for (const rec of await repo.unsettledRows(importId, undefined, tx)) {
        const adopted = await customerOfInterruptedAttempt(platformId, rec, tx);
        const outcome = adopted
          ? { customerId: adopted }
          : { error: internalError(asFileRow(rec), 'Not processed: the import stopped after repeated errors') };
        await repo.settleRow(importId, rec.rowNumber, outcome, at, tx);
      }
      const done = await repo.finish(importId, 'FAILED', reason.slice(0, 2000), at, tx);
      await recordEvent(tx, platformId, 'BULK_UPLOAD.FAILED', await present(done, tx));
    },
    { timeoutMs: 120_000 },
  );
}

async function run(platformId: string, importId: string, owner: string): Promise<void> {
  const start = now();
  const leased = await transaction(async (tx) => {
    if (await repo.acquireLease(importId, owner, start, addSeconds(start, tuning.leaseSeconds), tx)) return true;
    const job = await repo.find(platformId, importId, tx);
    // Another run holds a live lease: look again when it runs out, in case that run died.
    if (job && (job.status === 'PENDING' || job.status === 'PROCESSING'))
      await continueLater(platformId, importId, addSeconds(job.leaseUntil ?? start, 1), tx);
    return false;
  });
  if (!leased) return;
  const startedAt = Date.now();
  let settled = 0;
  for (;;) {
    const rows = await repo.unsettledRows(importId, tuning.batchSize, db());
    if (!rows.length) return complete(platformId, importId, owner);
    for (const rec of rows) {
      if (!(await processRow(platformId, importId, owner, rec))) return;
      settled++;
      if (settled >= tuning.rowsPerRun || Date.now() - startedAt > tuning.runBudgetMs) {
        await transaction(async (tx) => {
          await repo.releaseLease(importId, owner, tx);
          await continueLater(platformId, importId, undefined, tx);
        });
        return;
      }
    }
  }
}

/** The import job (IMPORT_JOB_KIND), registered by lib/wiring.ts. */
export const importJob: JobHandler = async (payload, job) => {
  const { importId } = payload as { importId: string };
  try {
    await run(job.platformId, importId, job.id);
  } catch (err) {
    // Free the file at once so the retry does not wait for the lease to run out.
    await repo.releaseLease(importId, job.id, db()).catch(() => {});
    if (job.attempts < MAX_ATTEMPTS) throw err;
    await abandon(job.platformId, importId, err instanceof Error ? err.message : String(err));
  }
};
