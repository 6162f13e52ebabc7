import { db, Prisma, queryDirect, transaction } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';
import { announce } from '../core/invalidation';

// Storage of failed-authentication counts and refusals (model AuthFailure), shared by every
// server process. Only the failure path writes here; a valid request never touches it.
export interface FailureCount {
  key: string;
  failures: number;
  windowStart: Date;
}

/**
 * Counts one failure under each key, restarting a key's count when its window has ended; one
 * statement. Keys are taken in a fixed order, so concurrent calls lock the rows alike.
 */
export function countFailures(keys: string[], at: Date, windowMs: number): Promise<FailureCount[]> {
  const ended = new Date(at.getTime() - windowMs);
  return queryDirect<FailureCount>(Prisma.sql`
    INSERT INTO "AuthFailure" ("key", "windowStart", "failures")
    SELECT k, ${at}::timestamp(3), 1 FROM unnest(${[...keys].sort()}::text[]) AS k
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN "AuthFailure"."windowStart" <= ${ended}::timestamp(3)
                        THEN 1 ELSE "AuthFailure"."failures" + 1 END,
      "windowStart" = CASE WHEN "AuthFailure"."windowStart" <= ${ended}::timestamp(3)
                           THEN ${at}::timestamp(3) ELSE "AuthFailure"."windowStart" END
    RETURNING "key", "failures", "windowStart"`);
}

/** Records refusals until `until` and tells every server process (topic `auth-block`). */
export async function block(keys: string[], at: Date, until: Date): Promise<void> {
  const announced = await transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO "AuthFailure" ("key", "windowStart", "failures", "blockedUntil")
      SELECT k, ${at}::timestamp(3), 0, ${until}::timestamp(3) FROM unnest(${[...keys].sort()}::text[]) AS k
      ON CONFLICT ("key") DO UPDATE SET
        "blockedUntil" = GREATEST(COALESCE("AuthFailure"."blockedUntil", EXCLUDED."blockedUntil"), EXCLUDED."blockedUntil")`;
    return announce(tx, 'auth-block', JSON.stringify({ until: until.getTime(), keys }));
  });
  // Answered once every process holds the refusal: a refusal happens once per window and source.
  await announced.committed();
}

/** Refusals in force at `at` (loaded when a process starts listening, since it missed earlier ones). */
export function activeBlocks(at: Date): Promise<{ key: string; blockedUntil: Date }[]> {
  return db().authFailure.findMany({
    where: { blockedUntil: { gt: at } },
    select: { key: true, blockedUntil: true },
  }) as Promise<{ key: string; blockedUntil: Date }[]>;
}

/** Rows whose window and refusal both ended before `before`. */
export function purgeEnded(before: Date, limit = EVERY_ROW): Promise<number> {
  return deleteBatch(
    'AuthFailure',
    Prisma.sql`"windowStart" < ${before} AND ("blockedUntil" IS NULL OR "blockedUntil" < ${before})`,
    limit,
  );
}
