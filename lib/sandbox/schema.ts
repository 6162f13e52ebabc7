import { z } from 'zod';
import { money } from '../core/fields';

// Sandbox endpoints (reference: SandboxFundRequest, ...).
export const fundRequest = z.object({ amount: money({ min: 1n, max: 100_000_000_000n }) });
export const accountIdParams = z.object({ accountId: z.string() });

export const sendRequest = z.object({
  quoteId: z.string().min(1),
  currencyCode: z.string().min(1),
  currencyAmount: money({ min: 1n }).optional(),
});

export const umaReceiveRequest = z.object({
  senderUmaAddress: z.string().min(1),
  receiverUmaAddress: z.string().optional(),
  customerId: z.string().optional(),
  receivingCurrencyCode: z.string().min(1),
  receivingCurrencyAmount: money({ min: 1n }),
});

export const clockAdvanceRequest = z.object({
  seconds: z
    .number()
    .int()
    .min(1)
    .max(366 * 24 * 3600),
});
export const clockState = z.object({
  now: z.string(),
  offsetSeconds: z.number(),
  /** Whether the clock only moves when advanced (set for test platforms, lib/sandbox/clock.ts). */
  frozen: z.boolean().describe('Whether this clock stands still between advances (it then moves only when advanced)'),
  jobsRun: z.number().int(),
  webhooksDelivered: z.number().int(),
  jobsPending: z
    .number()
    .int()
    .describe(
      'Timed work the advance made due that had not finished when it answered: 0 unless it was still running after 30 seconds',
    ),
});
