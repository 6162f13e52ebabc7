import { registerJob } from '../jobs/queue';
import { completeLiveness, SANDBOX_LIVENESS_JOB } from './ownership';

// The sandbox liveness check's outcome, delivered by the worker after the simulated delay.
registerJob(SANDBOX_LIVENESS_JOB, async (payload, job) => {
  const { challengeId, passed } = payload as { challengeId: string; passed: boolean };
  await completeLiveness(job.platformId, challengeId, passed);
});
