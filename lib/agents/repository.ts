import type { PlatformClock } from '../core/clock';
import { Prisma, db, type Tx } from '../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';
import { ACTION_MOVES, type ActionMove } from './state';

// Agents, their device codes, usage counters and actions: every query of the agents domain.
export type AgentRow = Prisma.AgentGetPayload<object>;
export type DeviceCodeRow = Prisma.AgentDeviceCodeGetPayload<object>;
export type ActionRow = Prisma.AgentActionGetPayload<object>;

const live = { deletedAt: null };

export function insertAgent(row: Prisma.AgentUncheckedCreateInput, tx: Tx): Promise<AgentRow> {
  return tx.agent.create({ data: row });
}

export function findAgent(platformId: string, id: string, tx: Tx): Promise<AgentRow | null> {
  return tx.agent.findFirst({ where: { platformId, id, ...live } });
}

/** What names agents (lib/staff/names), deleted ones too: the audit log still names them. */
export function byIds(platformId: string, ids: string[], tx: Tx) {
  if (!ids.length) return Promise.resolve([]);
  return tx.agent.findMany({
    where: { platformId, id: { in: ids } },
    select: { id: true, name: true, customerId: true },
  });
}

export function findAgentUnscoped(id: string, tx: Tx): Promise<AgentRow | null> {
  return tx.agent.findFirst({ where: { id, ...live } });
}

export function findByTokenHash(tokenHash: string): Promise<(AgentRow & PlatformClock) | null> {
  return db()
    .agent.findFirst({ where: { tokenHash, ...live } })
    .then(async (a) => {
      if (!a) return null;
      const p = await db().platform.findUnique({
        where: { id: a.platformId },
        select: { clockOffsetMs: true, clockFrozenAt: true },
      });
      return p ? { ...a, ...p } : null;
    });
}

/** Locks a live agent row (its policy as of now, for a decision that must not race a change). */
export async function lockAgent(id: string, tx: Tx): Promise<AgentRow | null> {
  const rows = await tx.$queryRaw<AgentRow[]>`
    SELECT * FROM "Agent" WHERE "id" = ${id} AND "deletedAt" IS NULL FOR SHARE`;
  return rows[0] ?? null;
}

export function updateAgent(id: string, data: Prisma.AgentUncheckedUpdateInput, tx: Tx): Promise<AgentRow> {
  return tx.agent.update({ where: { id }, data });
}

export interface AgentFilter {
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
}

export function listAgents(platformId: string, f: AgentFilter, req: ListRequest) {
  const where: Prisma.AgentWhereInput = {
    platformId,
    ...live,
    ...(f.customerId ? { customerId: f.customerId } : {}),
    ...(f.isPaused !== undefined ? { isPaused: f.isPaused } : {}),
    ...(f.isConnected !== undefined ? { connectedAt: f.isConnected ? { not: null } : null } : {}),
    createdAt: { gte: f.createdAfter, lte: f.createdBefore },
    updatedAt: { gte: f.updatedAfter, lte: f.updatedBefore },
  };
  return listRows(req, {
    rows: (after, take) => db().agent.findMany({ where: { AND: [where, after] }, orderBy: orderOf(req.order), take }),
    count: (cap) => db().agent.count({ where, ...bounded(cap) }),
  });
}

// Device codes.
export function insertCode(row: Prisma.AgentDeviceCodeUncheckedCreateInput, tx: Tx): Promise<DeviceCodeRow> {
  return tx.agentDeviceCode.create({ data: row });
}

export function findCode(codeHash: string, tx: Tx): Promise<DeviceCodeRow | null> {
  return tx.agentDeviceCode.findUnique({ where: { codeHash } });
}

/** Retires an agent's unredeemed codes (a new one was issued, or the agent was deleted). */
export function retireCodes(agentId: string, state: 'SUPERSEDED' | 'REVOKED', tx: Tx) {
  return tx.agentDeviceCode.updateMany({ where: { agentId, state: 'ACTIVE' }, data: { state } });
}

/** Redeems a code once: only one caller moves it out of ACTIVE, and only before it expires. */
export async function redeemCode(codeHash: string, at: Date, tx: Tx): Promise<DeviceCodeRow | null> {
  const rows = await tx.$queryRaw<DeviceCodeRow[]>`
    UPDATE "AgentDeviceCode" SET "state" = 'REDEEMED', "redeemedAt" = ${at}::timestamp(3)
    WHERE "codeHash" = ${codeHash} AND "state" = 'ACTIVE' AND "expiresAt" > ${at}::timestamp(3)
    RETURNING *`;
  return rows[0] ?? null;
}

// Actions.
export function insertAction(row: Prisma.AgentActionUncheckedCreateInput, tx: Tx): Promise<ActionRow> {
  return tx.agentAction.create({ data: row });
}

export function findAction(platformId: string, id: string, tx: Tx): Promise<ActionRow | null> {
  return tx.agentAction.findFirst({ where: { platformId, id } });
}

export function findActionByTransaction(platformId: string, transactionId: string, tx: Tx) {
  return tx.agentAction.findFirst({ where: { platformId, transactionId } });
}

/**
 * Locks an action still waiting for approval. A concurrent approval or rejection waits on the
 * lock, then finds the action no longer PENDING_APPROVAL and gets null.
 */
export async function lockPending(platformId: string, id: string, tx: Tx): Promise<ActionRow | null> {
  const rows = await tx.$queryRaw<ActionRow[]>`
    SELECT * FROM "AgentAction"
    WHERE "platformId" = ${platformId} AND "id" = ${id} AND "status" = 'PENDING_APPROVAL' FOR UPDATE`;
  return rows[0] ?? null;
}

/**
 * Locks actions still waiting for approval whose held transaction expired (its quote expired
 * first), skipping rows another worker holds. The partial index on pending actions keeps this
 * small however many actions were ever decided.
 */
export function lockExpiredPending(limit: number, platformId: string | undefined, tx: Tx) {
  return tx.$queryRaw<(ActionRow & PlatformClock)[]>`
    SELECT a.*, p."clockOffsetMs", p."clockFrozenAt" FROM "AgentAction" a
    JOIN "Transaction" t ON t."id" = a."transactionId"
    JOIN "Platform" p ON p."id" = a."platformId"
    WHERE a."status" = 'PENDING_APPROVAL' AND t."status" = 'EXPIRED'
      AND (${platformId ?? null}::text IS NULL OR a."platformId" = ${platformId ?? null})
    ORDER BY a."createdAt" LIMIT ${limit}
    FOR UPDATE OF a SKIP LOCKED`;
}

/** Actions the expiry sweep failed since `since` (their quote expired while held), newest first. */
export function expiredWhileHeld(platformId: string, reasonSuffix: string, since: Date, limit: number, tx: Tx) {
  return tx.agentAction.findMany({
    where: { platformId, status: 'FAILED', failureReason: { endsWith: reasonSuffix }, updatedAt: { gte: since } },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/** Applies a move if the action is still in an allowed state; null when it had moved on. */
export async function move(
  id: string,
  name: ActionMove,
  data: Prisma.AgentActionUncheckedUpdateInput,
  tx: Tx,
): Promise<ActionRow | null> {
  const m = ACTION_MOVES[name];
  const r = await tx.agentAction.updateManyAndReturn({
    where: { id, status: { in: [...m.from] } },
    data: { ...data, status: m.to },
  });
  return r[0] ?? null;
}

export interface ActionFilter {
  agentId?: string;
  customerId?: string;
  status?: string;
  startDate?: Date;
  endDate?: Date;
}

export function listActions(platformId: string, f: ActionFilter, req: ListRequest) {
  const where: Prisma.AgentActionWhereInput = {
    platformId,
    ...(f.agentId ? { agentId: f.agentId } : {}),
    ...(f.customerId ? { customerId: f.customerId } : {}),
    ...(f.status ? { status: f.status } : {}),
    createdAt: { gte: f.startDate, lte: f.endDate },
  };
  return listRows(req, {
    rows: (after, take) =>
      db().agentAction.findMany({ where: { AND: [where, after] }, orderBy: orderOf(req.order), take }),
    count: (cap) => db().agentAction.count({ where, ...bounded(cap) }),
  });
}

// Usage counters.
export function usageRows(agentId: string, periods: string[], tx: Tx) {
  return tx.agentUsage.findMany({ where: { agentId, period: { in: periods } } });
}

/**
 * Adds `amount` and one action to a period's counters if that keeps them within the limits
 * (null: no limit), as one conditional UPDATE: concurrent reservations serialize on the row and
 * each sees the others' committed counts, so together they never pass a limit.
 */
export async function reserveUsage(
  agentId: string,
  period: string,
  amount: bigint,
  maxAmount: bigint | null,
  maxCount: number | null,
  tx: Tx,
): Promise<boolean> {
  await tx.$executeRaw`
    INSERT INTO "AgentUsage" ("agentId", "period") VALUES (${agentId}, ${period}) ON CONFLICT DO NOTHING`;
  const rows = await tx.$queryRaw<unknown[]>`
    UPDATE "AgentUsage" SET "amount" = "amount" + ${amount}::bigint, "count" = "count" + 1
    WHERE "agentId" = ${agentId} AND "period" = ${period}
      AND (${maxAmount}::bigint IS NULL OR "amount" + ${amount}::bigint <= ${maxAmount}::bigint)
      AND (${maxCount}::int IS NULL OR "count" + 1 <= ${maxCount}::int)
    RETURNING 1`;
  return rows.length === 1;
}

/** Gives a reservation back (its action was rejected or failed). */
export async function releaseUsage(agentId: string, period: string, amount: bigint, tx: Tx): Promise<void> {
  await tx.$executeRaw`
    UPDATE "AgentUsage" SET "amount" = GREATEST("amount" - ${amount}::bigint, 0), "count" = GREATEST("count" - 1, 0)
    WHERE "agentId" = ${agentId} AND "period" = ${period}`;
}
