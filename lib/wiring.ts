import { IMPORT_JOB_KIND } from './bulk-import/service';
import { importJob } from './bulk-import/job';
import { livenessJob } from './external-accounts/jobs';
import { SANDBOX_LIVENESS_JOB } from './external-accounts/ownership';
import { isDescribable, plug, type AdapterStatus, type Plug } from './core/ports';
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
import { paymentRail, productionPaymentRail, sandboxPaymentRail } from './payments/scenarios';
import { unconnectedPaymentRail } from './payments/rail';
import { httpRailFromEnv } from './payments/rail-http';
import { submitJob } from './payments/rail-engine';
import { REFUND_JOB, SUBMIT_JOB } from './payments/rail';
import { refundJob } from './payments/rail-refund';
import { sendersFromEnv } from './notify/providers';
import { httpJwksSource, jwksSource } from './wallet-auth/oidc';
import { httpWebhookTransport, webhookTransport } from './webhooks/transport';
import type { JobHandler, JobRegistry } from './jobs/queue';
import { expireQuotes, returnJob, settleJobs } from './payments/settlement';
import { failExpiredActions } from './agents/expiry';
import { settleTransferJob } from './payments/transfers/settlement';
import { answerToPendingWebhook, approvalTimeoutJob } from './payments/uma/receive';
import { answerInterpreters } from './webhooks/service';
import { pruneEventsBatch } from './webhooks/retention';
import type { Pruner } from './jobs/retention';
import { pruneSignInLimits } from './staff/sign-in-limits';
import { pruneHeartbeats } from './ops/heartbeat';
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
import { ratesSource, unconnectedRates } from './fx/rates';
import { sandboxRates } from './fx/sandbox-rates';
import { httpRatesFromEnv } from './fx/rates-http';
import { refreshRates } from './fx/jobs';
import { lithicAsa, lithicAsaFromEnv, noLithicAsa } from './cards/lithic';

// What plugs the parts together: every job kind and sweep the worker runs, and every port
// (lib/core/ports.ts): the outside world and the few inward-pointing hooks. createCorridor
// (lib/boot.ts) calls these once per instance it builds. Nothing registers itself when its module
// is imported, so what works never depends on which modules a route happened to load.

/** The instance's job kinds, batch handlers and sweeps, and its housekeeping pruners. */
export function registerWork(jobs: JobRegistry, pruners: Map<string, Pruner>): void {
  jobs.batch.set('payment.settle', settleJobs);
  const kinds: [string, JobHandler][] = [
    ['payment.return', returnJob],
    [SUBMIT_JOB, submitJob],
    [REFUND_JOB, refundJob],
    ['transfer.settle', settleTransferJob],
    ['incoming.approval_timeout', approvalTimeoutJob],
    [IMPORT_JOB_KIND, importJob],
    [SANDBOX_LIVENESS_JOB, livenessJob],
    [REVIEW_JOB, reviewJob],
    [POLL_JOB, pollJob],
    [PROVISION_JOB, provisionJob],
    [PULL_CONFIRM_JOB, pullConfirmJob],
  ];
  for (const [kind, handler] of kinds) jobs.handlers.set(kind, handler);
  jobs.sweeps.set('fx.rates.refresh', refreshRates); // first: a pass's quotes price from fresh figures
  jobs.sweeps.set('quote.expire', expireQuotes);
  jobs.sweeps.set('agent.action.expire', failExpiredActions); // after quote.expire: it reads what that one expired
  // Housekeeping (lib/jobs/retention.ts, every 10 minutes): settled events past their retention,
  // staff sign-in limits gone quiet.
  pruners.set('events', (wallNow: Date, limit: number) => pruneEventsBatch(wallNow, limit));
  pruners.set('staffSignIn', pruneSignInLimits);
  pruners.set('workerHeartbeats', pruneHeartbeats);
}

/**
 * The ports of an instance of `mode`: the sandbox simulations in a sandbox instance, the
 * production adapters otherwise — chosen here, once, when the instance is built.
 */
export function portsFor(
  mode: 'sandbox' | 'production',
  env: Record<string, string | undefined> = process.env,
): Plug[] {
  const sandbox = mode === 'sandbox';
  return [
    // Where an inner domain asks an outer one.
    plug(contactChangeGuard, guardContactChange),
    plug(answerInterpreters, { 'INCOMING_PAYMENT.PENDING': answerToPendingWebhook }),
    // The outside world.
    plug(accountRail, sandbox ? sandboxRail : unconnectedRail),
    plug(ownershipProvider, sandbox ? sandboxOwnershipProvider : signatureOnlyProvider),
    plug(kycProvider, sandbox ? sandboxProvider : manualReviewProvider),
    plug(livenessCheck, sandbox ? sandboxLiveness : unconnectedLiveness),
    plug(
      paymentRail,
      sandbox ? sandboxPaymentRail : productionPaymentRail(httpRailFromEnv(env) ?? unconnectedPaymentRail),
    ),
    plug(ratesSource, sandbox ? sandboxRates : (httpRatesFromEnv(env) ?? unconnectedRates)),
    plug(stablecoinProvider, sandbox ? sandboxStablecoinProvider : unconnectedProvider),
    plug(cardProcessor, sandbox ? sandboxCardProcessor : unconnectedCardProcessor),
    // Authorization decisions served to Lithic (either mode: a Lithic sandbox program can point
    // its ASA responder at a Corridor sandbox).
    plug(lithicAsa, lithicAsaFromEnv(env)),
    plug(messageSender, sandbox ? developmentSender : sendersFromEnv(env)),
    plug(jwksSource, httpJwksSource),
    plug(webhookTransport, httpWebhookTransport),
  ];
}

// A port an instance may leave empty (null: nothing is served) still has its party in the
// summary and in /metrics, so an operator sees what is missing rather than nothing at all.
const WHEN_EMPTY: Record<string, AdapterStatus> = { [lithicAsa.name]: noLithicAsa };

/** What each outside-world party of an instance is served by (the summary and /metrics read it). */
export function adapterStatuses(ports: Map<string, unknown>): AdapterStatus[] {
  const statuses: AdapterStatus[] = [];
  for (const [name, impl] of ports) {
    if (isDescribable(impl)) statuses.push(impl.describe());
    else if (impl == null && WHEN_EMPTY[name]) statuses.push(WHEN_EMPTY[name]);
  }
  return statuses;
}

/**
 * One line per outside-world party of an instance (each adapter says what it is: a `describe()`
 * on the implementation, lib/core/ports.ts AdapterStatus), printed once at start-up.
 */
export function adapterSummary(ports: Map<string, unknown>): string[] {
  return adapterStatuses(ports).map((a) => {
    const state = a.connected ? 'connected' : a.adapter === 'sandbox' ? 'simulated' : 'NOT CONNECTED';
    return `  ${a.party}: ${a.adapter} (${state})${a.detail ? ` — ${a.detail}` : ''}`;
  });
}
