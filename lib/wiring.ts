import { IMPORT_JOB_KIND } from './bulk-import/service';
import { importJob } from './bulk-import/job';
import { livenessJob } from './external-accounts/jobs';
import { SANDBOX_LIVENESS_JOB } from './external-accounts/ownership';
import { byMode } from './core/ports';
import { kycProvider, manualReviewProvider, sandboxProvider } from './customers/kyc-provider';
import {
  accountRail,
  ownershipProvider,
  sandboxOwnershipProvider,
  sandboxRail,
  signatureOnlyProvider,
  unconnectedRail,
} from './external-accounts/rails';
import { developmentSender, messageSender } from './notify/sender';
import { paymentRail, sandboxPaymentRail, simulatedPaymentRail } from './payments/scenarios';
import { httpJwksSource, jwksSource } from './wallet-auth/oidc';
import { httpWebhookTransport, webhookTransport } from './webhooks/transport';
import { registerBatchJob, registerJob, registerSweep } from './jobs/queue';
import { expireQuotes, returnJob, settleJobs } from './payments/settlement';
import { failExpiredActions } from './agents/expiry';
import { settleTransferJob } from './payments/transfers/settlement';
import { answerToPendingWebhook, approvalTimeoutJob } from './payments/uma/receive';
import { answerInterpreters } from './webhooks/service';
import { pruneEvents } from './webhooks/retention';
import { registerPruner } from './jobs/retention';
import { pruneSignInLimits } from './staff/sign-in-limits';
import { pruneHeartbeats } from './ops/heartbeat';
import { db } from './core/db';
import { contactChangeGuard } from './customers/service';
import { PROVISION_JOB, provisionJob } from './cards/service';
import { PULL_CONFIRM_JOB, pullConfirmJob } from './cards/authorization';
import { cardProcessor, sandboxCardProcessor, unconnectedCardProcessor } from './cards/processor';
import { guardContactChange } from './wallet-auth/contact-sync';
import { stablecoinProvider, unconnectedProvider } from './stablecoins/provider';
import { sandboxStablecoinProvider } from './stablecoins/sandbox-provider';
import { REVIEW_JOB, reviewJob } from './stablecoins/service';
import { POLL_JOB } from './stablecoins/operations';
import { pollJob } from './stablecoins/jobs';
import { livenessCheck, sandboxLiveness, unconnectedLiveness } from './sca/liveness';

// The one place where the parts are plugged together: every job kind and sweep the worker runs,
// and every port (lib/core/ports.ts): the outside world and the few inward-pointing hooks.
// Nothing registers itself when its module is imported, so what works never depends on which
// modules a route happened to load. Called once per process: by instrumentation.ts in every
// server process, by the test setup, by scripts that run jobs.
const state = globalThis as unknown as { __corridorWired?: boolean };

export function wire(): void {
  if (state.__corridorWired) return;
  state.__corridorWired = true;
  registerBatchJob('payment.settle', settleJobs);
  registerJob('payment.return', returnJob);
  registerJob('transfer.settle', settleTransferJob);
  registerJob('incoming.approval_timeout', approvalTimeoutJob);
  registerJob(IMPORT_JOB_KIND, importJob);
  registerJob(SANDBOX_LIVENESS_JOB, livenessJob);
  registerJob(REVIEW_JOB, reviewJob);
  registerJob(POLL_JOB, pollJob);
  registerJob(PROVISION_JOB, provisionJob);
  registerJob(PULL_CONFIRM_JOB, pullConfirmJob);
  registerSweep('quote.expire', expireQuotes);
  registerSweep('agent.action.expire', failExpiredActions); // after quote.expire: it reads what that one expired
  // Housekeeping (lib/jobs/retention.ts, every 10 minutes): settled events past their retention,
  // staff sign-in limits gone quiet.
  registerPruner('events', pruneEvents);
  registerPruner('staffSignIn', pruneSignInLimits);
  registerPruner('workerHeartbeats', (wallNow) => pruneHeartbeats(db(), wallNow));
  // Ports: where an inner domain asks an outer one.
  contactChangeGuard.set(guardContactChange);
  // Ports to the outside world: the sandbox simulations in sandbox mode, the production adapters
  // otherwise (decided per call: the mode is a setting).
  accountRail.set(byMode(sandboxRail, unconnectedRail));
  ownershipProvider.set(byMode(sandboxOwnershipProvider, signatureOnlyProvider));
  kycProvider.set(byMode(sandboxProvider, manualReviewProvider));
  livenessCheck.set(byMode(sandboxLiveness, unconnectedLiveness));
  paymentRail.set(byMode(sandboxPaymentRail, simulatedPaymentRail));
  stablecoinProvider.set(byMode(sandboxStablecoinProvider, unconnectedProvider));
  cardProcessor.set(byMode(sandboxCardProcessor, unconnectedCardProcessor));
  messageSender.set(developmentSender);
  jwksSource.set(httpJwksSource);
  webhookTransport.set(httpWebhookTransport);
  answerInterpreters.set({ 'INCOMING_PAYMENT.PENDING': answerToPendingWebhook });
}
