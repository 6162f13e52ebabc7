import type { JobHandler } from '../jobs/queue';
import { completeLiveness } from './ownership';

/** The sandbox liveness check's outcome, delivered by the worker after the simulated delay (SANDBOX_LIVENESS_JOB). */
export const livenessJob: JobHandler = async (payload, job) => {
  const { challengeId, passed } = payload as { challengeId: string; passed: boolean };
  await completeLiveness(job.platformId, challengeId, passed);
};
