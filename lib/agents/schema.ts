import { z } from 'zod';
import { currencyCode, isoDate, isoDateTime, money, nonEmpty } from '../core/fields';
import { pageQuery } from '../core/pagination';
import { quote } from '../payments/quotes/schema';
import { transaction, transactionListQuery } from '../payments/transactions/schema';
import { internalAccountType } from '../accounts/schema';

// Agents (reference: Agent*, tags "Agent Management" and "Agent Operations").
export const agentPermission = z.enum([
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
]);
export type AgentPermission = z.output<typeof agentPermission>;
export const executionMode = z.enum(['AUTO', 'APPROVAL_REQUIRED']);

const limitAmount = money({ min: 0n });

export const spendingLimits = z.object({
  currency: currencyCode,
  perTransactionLimit: limitAmount,
  dailyLimit: limitAmount.nullable().optional(),
  dailyTransactionLimit: z.number().int().min(0).max(1_000_000_000).optional(),
  monthlyLimit: limitAmount.nullable().optional(),
});

export const accountRule = z.object({
  accountId: z.string().min(1).max(255),
  executionMode: executionMode.optional(),
  perTransactionLimit: limitAmount.nullable().optional(),
});

export const accountRestrictions = z.object({
  allowedAccountIds: z.array(z.string().min(1).max(255)).max(1000).nullable().optional(),
  accountRules: z.array(accountRule).max(1000).optional(),
});

export const approvalThresholds = z
  .object({ currency: currencyCode.optional(), amount: limitAmount.nullable().optional() })
  .refine((t) => t.amount === undefined || t.amount === null || t.currency !== undefined, {
    message: 'currency is required when amount is set',
    path: ['currency'],
  });

export const agentPolicy = z.object({
  permissions: z.array(agentPermission).max(5),
  defaultExecutionMode: executionMode,
  spendingLimits,
  accountRestrictions: accountRestrictions.optional(),
  approvalThresholds: approvalThresholds.optional(),
});
export type AgentPolicy = z.output<typeof agentPolicy>;

export const agentCreate = z.object({
  name: nonEmpty(255),
  customerId: z.string().min(1).max(255),
  policy: agentPolicy,
});

export const agentUpdate = z
  .object({ name: nonEmpty(255).optional(), isPaused: z.boolean().optional() })
  .refine((u) => u.name !== undefined || u.isPaused !== undefined, { message: 'give name or isPaused' });

export const agentPolicyUpdate = z.object({
  permissions: z.array(agentPermission).max(5).optional(),
  defaultExecutionMode: executionMode.optional(),
  spendingLimits: z
    .object({
      currency: currencyCode.optional(),
      perTransactionLimit: limitAmount.optional(),
      dailyLimit: limitAmount.nullable().optional(),
      dailyTransactionLimit: z.number().int().min(0).max(1_000_000_000).optional(),
      monthlyLimit: limitAmount.nullable().optional(),
    })
    .optional(),
  accountRestrictions: accountRestrictions.optional(),
  approvalThresholds: approvalThresholds.optional(),
});
export type AgentPolicyUpdate = z.output<typeof agentPolicyUpdate>;

export const rejectRequest = z.object({ reason: z.string().max(1000).optional() }).default({});

export const agentIdParams = z.object({ agentId: z.string() });
export const actionParams = z.object({ agentId: z.string(), actionId: z.string() });
export const codeParams = z.object({ code: z.string().max(255) });
export const actionIdParams = z.object({ actionId: z.string() });

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const agentListQuery = z.object({
  customerId: z.string().optional(),
  isPaused: flag.optional(),
  isConnected: flag.optional(),
  createdAfter: isoDateTime.optional(),
  createdBefore: isoDateTime.optional(),
  updatedAfter: isoDateTime.optional(),
  updatedBefore: isoDateTime.optional(),
  ...pageQuery,
});
export type AgentListQuery = z.output<typeof agentListQuery>;

export const approvalsQuery = z.object({
  agentId: z.string().optional(),
  customerId: z.string().optional(),
  startDate: isoDateTime.optional(),
  endDate: isoDateTime.optional(),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
  ...pageQuery,
});
export type ApprovalsQuery = z.output<typeof approvalsQuery>;

export const actionStatus = z.enum(['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED']);
export const myActionsQuery = z.object({ status: actionStatus.optional(), ...pageQuery });

// Response shapes for the served document.
export const agentUsage = z.object({
  dailyTransactionCount: z.number().int(),
  dailySpend: money(),
  dailyResetDate: isoDate,
  monthlySpend: money(),
  monthlyResetMonth: z.string(),
});

export const agent = z.object({
  id: z.string(),
  name: z.string(),
  customerId: z.string(),
  isPaused: z.boolean(),
  isConnected: z.boolean(),
  policy: agentPolicy,
  usage: agentUsage,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const deviceCode = z.object({
  code: z.string(),
  agentId: z.string(),
  expiresAt: isoDateTime,
  redeemed: z.boolean(),
});

export const agentList = z.object({
  data: z.array(agent),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});

export const agentCreateResponse = z.object({ agent, deviceCode });
export const deviceCodeStatus = z.object({ code: z.string(), redeemed: z.boolean() });
export const redeemResponse = z.object({
  agentId: z.string(),
  agentName: z.string(),
  accessToken: z.string(),
  policy: agentPolicy,
});

export const agentAction = z.object({
  id: z.string(),
  agentId: z.string(),
  customerId: z.string(),
  platformCustomerId: z.string(),
  status: actionStatus,
  type: z.enum(['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN']),
  quote: quote.optional(),
  transferDetails: z
    .object({ amount: money(), currency: z.string(), sourceAccountId: z.string(), destinationAccountId: z.string() })
    .optional(),
  transaction: transaction.optional(),
  rejectionReason: z.string().optional(),
  // Ours, beside the reference's fields: why a FAILED action failed (e.g. its quote expired while
  // held for approval), so that the served document describes every field the answer carries.
  failureReason: z.string().optional(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const agentActionList = z.object({
  data: z.array(agentAction),
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().optional(),
});

// Agent-side queries: the platform's filters less the customer (the agent's is implied).
export const myTransactionsQuery = transactionListQuery.omit({ customerId: true, platformCustomerId: true });
export const myInternalAccountsQuery = z.object({
  currency: z.string().optional(),
  type: internalAccountType.optional(),
  ...pageQuery,
});
export const myExternalAccountsQuery = z.object({ currency: z.string().optional(), ...pageQuery });
