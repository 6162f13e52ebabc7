import { z } from 'zod';
import { money } from '../http/fields';

// Sandbox endpoints (reference: SandboxFundRequest, ...).
export const fundRequest = z.object({ amount: money({ min: 1n, max: 100_000_000_000n }) });
export const accountIdParams = z.object({ accountId: z.string() });
