import { addSeconds, now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { enqueue, type JobHandler } from '../jobs/queue';
import * as repo from './repository';
import { contextOf } from './links';
import { stablecoinProvider, type OperationOrder, type OperationReport } from './provider';
import { deliver, fundsIn, refund, release } from './postings';
import { POLL_JOB } from './operations';

// Job stablecoin.poll: asks the provider where an operation stands and applies what it says, each
// state change a guarded move (state.ts) with its posting in one transaction. A report may jump
// ahead (the clock moved on): funds received and completion are then applied together. Running
// the job twice changes nothing the second time.
const TERMINAL = new Set(['COMPLETED', 'FAILED', 'EXPIRED']);
const RECHECK_SECONDS = 60;

function orderOf(op: repo.OperationRow, coin: repo.StablecoinRow) {
  return {
    operationId: op.id,
    operationType: op.operationType as OperationOrder['operationType'],
    providerTokenIdentifier: coin.providerTokenIdentifier,
    amount: op.amount,
    fiatAmount: op.fiatAmount,
    baseCurrency: coin.baseCurrency,
    sourceType: (op.source as { type: string }).type,
    providerReference: op.providerReference ?? '',
    createdAt: op.createdAt,
  };
}

/** The provider holds the input: PENDING_* → PROCESSING with the funds posting. */
async function receive(tx: Tx, op: repo.OperationRow, providerStatus: string): Promise<repo.OperationRow> {
  if (op.status === 'PROCESSING') return op;
  const moved = await repo.moveOperation(op.id, 'fundsReceived', { providerStatus, updatedAt: now() }, tx);
  if (!moved) return op;
  await fundsIn(tx, moved);
  return moved;
}

async function schedule(tx: Tx, op: repo.OperationRow, seconds: number) {
  await enqueue(tx, {
    platformId: op.platformId,
    kind: POLL_JOB,
    payload: { operationId: op.id },
    runAt: addSeconds(now(), seconds),
  });
}

async function apply(tx: Tx, op: repo.OperationRow, report: OperationReport) {
  const at = now();
  switch (report.state) {
    case 'AWAITING_FUNDS': {
      if (op.expiresAt && at >= op.expiresAt) {
        const expired = await repo.moveOperation(op.id, 'expire', { providerStatus: 'expired', updatedAt: at }, tx);
        if (expired) await release(tx, expired);
        return;
      }
      // Nothing expected (null): look again when the funding window closes, or in a minute.
      const untilExpiry = op.expiresAt ? Math.ceil((op.expiresAt.getTime() - at.getTime()) / 1000) : null;
      const wait = report.checkAfterSeconds ?? untilExpiry ?? RECHECK_SECONDS;
      await schedule(tx, op, untilExpiry === null ? wait : Math.min(wait, untilExpiry));
      return;
    }
    case 'FUNDS_RECEIVED':
      await receive(tx, op, report.providerStatus);
      await schedule(tx, op, report.checkAfterSeconds);
      return;
    case 'COMPLETED': {
      const processing = await receive(tx, op, report.providerStatus);
      if (processing.status !== 'PROCESSING') return;
      const done = await repo.moveOperation(
        op.id,
        'complete',
        { providerStatus: report.providerStatus, updatedAt: at },
        tx,
      );
      if (done) await deliver(tx, done);
      return;
    }
    case 'FAILED': {
      // Each move names the states it leaves, so the posting always matches where the money is:
      // input the provider received goes back; input only held is released.
      const data = { providerStatus: report.providerStatus, failureReason: report.failureReason, updatedAt: at };
      const failed = await repo.moveOperation(op.id, 'fail', data, tx);
      if (failed) return refund(tx, failed);
      const refused = await repo.moveOperation(op.id, 'refuse', data, tx);
      if (refused) await release(tx, refused);
      return;
    }
  }
}

export const pollJob: JobHandler = async (payload, job) => {
  const { operationId } = payload as { operationId: string };
  const op = await repo.findOperation(job.platformId, operationId, db());
  if (!op || TERMINAL.has(op.status)) return;
  const [coin, link] = await Promise.all([
    repo.findStablecoin(job.platformId, op.stablecoinId, db()),
    repo.findLink(job.platformId, op.stablecoinProviderAccountId, db()),
  ]);
  if (!coin || !link) return;
  const report = await stablecoinProvider.get().operationStatus(contextOf(link), orderOf(op, coin));
  await transaction(async (tx) => {
    // Read again inside the transaction: the row may have moved while the provider answered.
    const current = await repo.findOperation(job.platformId, operationId, tx);
    if (current && !TERMINAL.has(current.status)) await apply(tx, current, report);
  });
};
