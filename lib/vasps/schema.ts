import { z } from 'zod';
import { pageQuery } from '../core/pagination';

// GET /vasps (reference: listVasps, VaspListResponse): pagination only, no filters.
export const vaspListQuery = z.object({ ...pageQuery });

export const vaspList = z.object({
  data: z.array(z.object({ vaspName: z.string(), url: z.string().optional() })),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
});
