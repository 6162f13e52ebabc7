import type { PlatformClock } from '../core/clock';
import { db, Prisma, queryIn, type Tx } from '../core/db';
import { changing } from '../core/invalidation';

const withConfig = {
  currencies: { orderBy: { position: 'asc' as const } },
  feeConfigs: { orderBy: [{ feeType: 'asc' as const }, { sourceCurrency: 'asc' as const }] },
};

export type PlatformWithConfig = Prisma.PlatformGetPayload<{ include: typeof withConfig }>;

export function findWithConfig(id: string, tx: Tx): Promise<PlatformWithConfig | null> {
  return tx.platform.findUnique({ where: { id }, include: withConfig });
}

export type PlatformRow = Prisma.PlatformGetPayload<object>;

/** The platform row alone, for callers that need none of its currencies or fees (plain SQL: read on every customer create). */
export async function findById(id: string, tx: Tx): Promise<PlatformRow | null> {
  const rows = await queryIn<PlatformRow>(tx, Prisma.sql`SELECT * FROM "Platform" WHERE "id" = ${id}`);
  return rows[0] ?? null;
}

export function findFirst() {
  return db().platform.findFirst({ orderBy: { createdAt: 'asc' } });
}

export async function insert(data: Prisma.PlatformCreateInput, tx: Tx) {
  return tx.platform.create({ data });
}

export async function update(id: string, data: Prisma.PlatformUpdateInput, tx: Tx) {
  return tx.platform.update({ where: { id }, data });
}

export interface CurrencyRow {
  currencyCode: string;
  minAmount: bigint;
  maxAmount: bigint;
  requiredCounterpartyFields: Prisma.InputJsonValue;
  enabledTransactionTypes: string[];
}

export async function replaceCurrencies(platformId: string, rows: CurrencyRow[], tx: Tx) {
  await tx.platformCurrency.deleteMany({ where: { platformId } });
  await tx.platformCurrency.createMany({ data: rows.map((r, position) => ({ ...r, platformId, position })) });
}

export async function upsertFee(
  platformId: string,
  fee: {
    feeType: string;
    sourceCurrency: string;
    variableFeeBps: number;
    fixedFeeAmount: bigint;
    fixedFeeCurrency: string;
  },
  at: Date,
  tx: Tx,
) {
  await tx.feeConfig.upsert({
    where: {
      platformId_feeType_sourceCurrency: { platformId, feeType: fee.feeType, sourceCurrency: fee.sourceCurrency },
    },
    create: { platformId, ...fee, createdAt: at, updatedAt: at },
    update: {
      variableFeeBps: fee.variableFeeBps,
      fixedFeeAmount: fee.fixedFeeAmount,
      fixedFeeCurrency: fee.fixedFeeCurrency,
      updatedAt: at,
    },
  });
}

export async function deleteFee(platformId: string, feeType: string, sourceCurrency: string, tx: Tx) {
  await tx.feeConfig.deleteMany({ where: { platformId, feeType, sourceCurrency } });
}

/** The one write path of the sandbox clock: cached principals carry the old offset, in every process. */
export async function setClockOffset(id: string, offsetMs: bigint): Promise<void> {
  await changing([{ topic: 'platform', key: id }], (tx) =>
    tx.platform.update({ where: { id }, data: { clockOffsetMs: offsetMs } }),
  );
}

/** Moves a platform's clock `ms` ahead in one statement (two advances at once both count). */
export async function advanceClock(id: string, ms: bigint): Promise<PlatformClock | null> {
  return changing([{ topic: 'platform', key: id }], async (tx) => {
    const rows = await tx.$queryRaw<PlatformClock[]>`
      UPDATE "Platform" SET "clockOffsetMs" = "clockOffsetMs" + ${ms}::bigint WHERE "id" = ${id}
      RETURNING "clockOffsetMs", "clockFrozenAt"`;
    return rows[0] ?? null;
  });
}

/**
 * Freezes (`frozen`) or releases a platform's clock at wall instant `wallNow`, its time standing
 * where it is: a frozen clock keeps the instant it stopped at; a released one takes the time it
 * stood still into its offset, so its time goes on from there.
 */
export async function setClockFrozen(id: string, frozen: boolean, wallNow: Date): Promise<PlatformClock | null> {
  return changing([{ topic: 'platform', key: id }], async (tx) => {
    const rows = await tx.$queryRaw<PlatformClock[]>(
      frozen
        ? Prisma.sql`UPDATE "Platform" SET "clockFrozenAt" = COALESCE("clockFrozenAt", ${wallNow}::timestamp(3))
            WHERE "id" = ${id} RETURNING "clockOffsetMs", "clockFrozenAt"`
        : Prisma.sql`UPDATE "Platform" SET "clockFrozenAt" = NULL, "clockOffsetMs" = "clockOffsetMs" + COALESCE(
              round(extract(epoch FROM "clockFrozenAt" - ${wallNow}::timestamp(3)) * 1000)::bigint, 0)
            WHERE "id" = ${id} RETURNING "clockOffsetMs", "clockFrozenAt"`,
    );
    return rows[0] ?? null;
  });
}
