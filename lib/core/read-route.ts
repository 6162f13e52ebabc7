import type pg from 'pg';
import { PipelinedPool } from './db-pool';

// Plain reads on a PostgreSQL server go through one pipelined connection (issue 24): one
// statement per connection at a time (lib/core/server-pool.ts) costs each statement a round
// trip and a woken backend of its own, about twice the client CPU of a pipelined statement. A
// statement pipelined behind one that waits on a row lock waits with it (issue 23), so only
// statements that cannot wait on a row lock go there: a SELECT reads a snapshot (MVCC) and never
// waits for a row lock unless it takes one (FOR UPDATE/SHARE) or calls a function that does. What
// remains is waiting behind a slow read, which `PipelinedReads` bounds.

/** Functions a plain read may call: none writes, locks or waits on another session. */
const PURE = new Set(
  `count sum min max avg bool_and bool_or every array_agg string_agg json_agg jsonb_agg json_build_object
  jsonb_build_object json_build_array jsonb_build_array json_object_agg jsonb_object_agg to_json to_jsonb
  row_to_json jsonb_array_elements jsonb_array_length jsonb_typeof jsonb_extract_path_text jsonb_each
  coalesce nullif greatest least lower upper length char_length octet_length substring substr trim btrim
  ltrim rtrim position replace concat concat_ws left right split_part starts_with regexp_replace
  abs round floor ceil ceiling mod sign now date_trunc date_part extract to_char to_timestamp age
  make_interval unnest array_length cardinality array_position generate_series row_number rank
  dense_rank lag lead first_value encode decode md5 current_setting pg_sleep
  numeric decimal varchar char character timestamp timestamptz time interval bit`.split(/\s+/),
);
/** Keywords that may stand before a parenthesis. */
const KEYWORDS = new Set(
  `select from where and or not in exists any all some values as on join lateral using over filter
  partition by group order having limit offset union intersect except case when then else end is
  between like ilike similar distinct row array cast within asc desc nulls first last`.split(/\s+/),
);
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
// Locking reads, SELECT INTO (creates a table), several statements, comments inside (which could
// hide what follows them from these tests), and a call through a quoted name.
const NOT_PLAIN = /\bfor\s+(?:update|share|no\s+key|key\s+share)\b|\binto\b|;\s*\S|--|\/\*|"\s*\(/i;
const CALL = /([a-z_][a-z0-9_$]*)\s*\(/gi;

/**
 * Whether `sql` is a plain read: a SELECT (after leading whitespace and comments) that takes no
 * row lock and calls only functions that cannot write or wait (PURE). Conservative by design: a
 * statement this refuses (WITH, a function of the schema's own, anything unknown) runs on the
 * server pool as every statement did before, which costs only speed.
 */
export function isPlainRead(sql: string): boolean {
  const body = sql.slice(LEADING.exec(sql)![0].length);
  if (!/^select\b/i.test(body) || NOT_PLAIN.test(body)) return false;
  for (const [, name] of body.matchAll(CALL)) {
    const word = name.toLowerCase();
    if (!PURE.has(word) && !KEYWORDS.has(word)) return false;
  }
  return true;
}

// Classified once per text (the same few statements run over and over); bounded, as a process
// may meet ever new texts (lists of varying length), which are then classified each time.
const MAX_CLASSIFIED = 2_000;
const classified = new Map<string, boolean>();
function isPlainReadCached(sql: string): boolean {
  let plain = classified.get(sql);
  if (plain === undefined) {
    plain = isPlainRead(sql);
    if (classified.size < MAX_CLASSIFIED) classified.set(sql, plain);
  }
  return plain;
}

export interface PipelinedReadsOptions {
  /** Once the oldest unanswered read is this old, new reads go to the server pool (20 ms). */
  maxAgeMs?: number;
  /** With this many reads unanswered, new reads go to the server pool (16). */
  maxInFlight?: number;
}

/**
 * The pipelined connection for plain reads, with its guard against head-of-line blocking: while
 * the oldest read unanswered on it has been in flight longer than `maxAgeMs`, or `maxInFlight`
 * are unanswered, `takes` says no and new reads go to the server pool instead. A slow read (a
 * list with its count, a read waiting on a table lock a migration holds) then delays at most what
 * was already written behind it, for as long as it runs (bounded by statement_timeout).
 */
export class PipelinedReads {
  readonly pool: PipelinedPool;
  /** Send times of unanswered reads, oldest first (a Map keeps insertion order). */
  private readonly inFlight = new Map<number, number>();
  private sent = 0;
  private readonly maxAgeMs: number;
  private readonly maxInFlight: number;

  constructor(config: pg.ClientConfig, { maxAgeMs = 20, maxInFlight = 16 }: PipelinedReadsOptions = {}) {
    this.pool = new PipelinedPool({ ...config, size: 1 });
    this.maxAgeMs = maxAgeMs;
    this.maxInFlight = maxInFlight;
  }

  /** Reads sent on the pipelined connection so far (tests and figures). */
  get count(): number {
    return this.sent;
  }

  /** Whether this statement goes on the pipelined connection now. */
  takes(config: pg.QueryConfig | string): boolean {
    const text = typeof config === 'string' ? config : config?.text;
    // A cursor or stream (submittable) or a `rows` limit keeps a portal open: not on a pipeline.
    if (typeof text !== 'string' || (typeof config === 'object' && ('submit' in config || 'rows' in config)))
      return false;
    if (this.inFlight.size >= this.maxInFlight) return false;
    const oldest = this.inFlight.values().next().value;
    if (oldest !== undefined && performance.now() - oldest > this.maxAgeMs) return false;
    return isPlainReadCached(text);
  }

  run(config: pg.QueryConfig | string, values: unknown): Promise<pg.QueryResult> {
    const id = this.sent++;
    this.inFlight.set(id, performance.now());
    return this.pool.send(config, values).finally(() => this.inFlight.delete(id));
  }
}
