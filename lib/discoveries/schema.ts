import { z } from 'zod';

// GET /discoveries (reference: getDiscoveries, DiscoveryListResponse).
export const discoveryQuery = z.object({
  country: z.string().max(16).optional(),
  currency: z.string().max(16).optional(),
});
export type DiscoveryQuery = z.output<typeof discoveryQuery>;

export const discoveryList = z.object({
  data: z.array(z.object({ bankName: z.string(), displayName: z.string(), country: z.string(), currency: z.string() })),
});
