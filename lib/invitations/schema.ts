import { z } from 'zod';
import { currencyAmount } from '../accounts/schema';
import { isoDateTime, money } from '../core/fields';

// UMA invitations (reference: UmaInvitationCreateRequest, UmaInvitationClaimRequest, UmaInvitation).
export const invitationStatus = z.enum(['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED']);

export const invitationCreate = z.object({
  inviterUma: z.string().max(255),
  firstName: z.string().trim().min(1).max(255).optional(),
  amountToSend: money({ min: 1n }).optional(),
  expiresAt: isoDateTime.optional(),
});
export type InvitationCreate = z.output<typeof invitationCreate>;

export const invitationClaim = z.object({ inviteeUma: z.string().max(255) });

export const invitationCodeParams = z.object({ invitationCode: z.string() });

export const invitation = z.object({
  code: z.string(),
  createdAt: z.string(),
  claimedAt: z.string().optional(),
  url: z.string(),
  expiresAt: z.string().optional(),
  inviterUma: z.string(),
  inviteeUma: z.string().optional(),
  status: invitationStatus,
  firstName: z.string().optional(),
  amountToSend: currencyAmount.optional(),
});
