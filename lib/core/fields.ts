import { z } from 'zod';
import { idPattern, type IdKind } from './ids';

// Field types shared by every domain's schemas. Money is an integer in the smallest unit:
// the body parser yields a number when it is safe and a bigint beyond that; both become bigint.
export const INT64_MAX = 9223372036854775807n;

export const money = (opts: { min?: bigint; max?: bigint } = {}) => {
  const min = opts.min ?? 0n;
  const max = opts.max ?? INT64_MAX;
  return z
    .union([z.number().int(), z.bigint()])
    .transform((v) => BigInt(v))
    .refine((v) => v >= min, { message: `must be >= ${min}` })
    .refine((v) => v <= max, { message: `must be <= ${max}` })
    .meta({ type: 'integer', format: 'int64' } as Record<string, unknown>);
};

/** ISO 4217 code, or a crypto ticker such as USDC or BTC. */
export const currencyCode = z.string().regex(/^[A-Z][A-Z0-9]{2,9}$/, 'must be an uppercase currency code such as USD');
/** ISO 3166-1 alpha-2. */
export const countryCode = z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as US');
// Years 0001-9999: the ISO pattern also admits year 0000 (and an offset can push 0001 below it),
// which PostgreSQL's timestamp and date types refuse; refused here as input, not there as a 500.
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
export const inStoredRange = (d: Date) => d.getTime() >= EARLIEST && d.getTime() <= LATEST;
const inRange = (v: string) => inStoredRange(new Date(v));
export const isoDate = z.iso.date().refine(inRange, 'must be a date between 0001-01-01 and 9999-12-31');
export const isoDateTime = z.iso
  .datetime({ offset: true })
  .refine(inRange, 'must be a time between years 0001 and 9999 (UTC)');
export const email = z.email();
export const phoneNumber = z.string().regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 phone number such as +14155550100');
export const nonEmpty = (max = 255) => z.string().trim().min(1).max(max);

export const recordId = (kind: IdKind) =>
  z.string().regex(idPattern(kind), `must be an identifier of the form ${kind}:<uuid>`);

/**
 * A query parameter the reference types as an array (style form, explode): taken repeated
 * (`?a=X&a=Y`, as the reference describes) and comma-joined (`?a=X,Y`, as generated clients send
 * it), or both at once. Empty items are dropped.
 */
export const queryList = (item: z.ZodType<string, string>, maxItems: number) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).filter((s) => s !== ''))
    .pipe(z.array(item).max(maxItems))
    .meta({ type: 'array', items: { type: 'string' } } as Record<string, unknown>);

/** Query-string boolean: only the literal words true and false. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

export const address = z.object({
  line1: z.string().min(1).max(255),
  line2: z.string().max(255).optional(),
  city: z.string().max(255).optional(),
  state: z.string().max(255).optional(),
  postalCode: z.string().min(1).max(32),
  country: countryCode,
});
export type Address = z.infer<typeof address>;

/**
 * The request a wallet-signed retry binds (lib/wallet-auth/signed-retry.ts SignedRequest): part of
 * the input of the commands that take one, since the holder's signature covers it.
 */
export const signedRequest = z.object({
  method: z.string(),
  path: z.string(),
  rawBody: z.string(),
  stamp: z.string().nullable(),
  requestId: z.string().nullable(),
});
