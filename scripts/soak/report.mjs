// The soak's report: the figures of the run, each scheduled event, and the violations; and, when
// there are violations, every recorded attempt of the operations concerned written to a file, so
// the exact sequence of events can be read afterwards.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseBody } from './http.mjs';
import { figures, history } from './judge.mjs';

/** The ids success answers named, to look up through the API (answer-not-found). */
export function namedIds(ops) {
  const paths = { quote: '/quotes', 'quote-now': '/quotes', execute: '/quotes' };
  const seen = new Map();
  for (const op of ops)
    for (const s of op.senders)
      if (s.final && s.final.status < 300 && op.kind !== 'fund') {
        const id = parseBody(s.final)?.id;
        if (id) seen.set(id, { path: paths[op.kind] ?? '/transactions', id });
      }
  return [...seen.values()];
}

export function report({ o, load, loadMs, jobs, effects, violations, servers = [] }) {
  const f = figures(load.all);
  const pct = ((100 * f.duplicateTotal) / f.operations).toFixed(1);
  const withEffect = [...effects.values()].filter((e) => e.length).length;
  const lines = [
    '',
    `=== soak figures (${o.db}, seed ${o.seed}) ===`,
    `operations: ${f.operations} in ${(loadMs / 1000).toFixed(1)} s at ${o.concurrency} clients (${Object.entries(
      f.byKind,
    )
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')})`,
    `same-key duplicates: ${f.duplicateTotal} (${pct}% of operations: ${Object.entries(f.duplicates)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')})`,
    `requests: ${f.senders} senders, ${f.attempts} attempts, ${f.connectionErrors} connection errors, ${f.replayed} replayed answers`,
    ...(servers.length > 1 ? [spread(load.all, servers)] : []),
    `answers by status: ${Object.entries(f.status)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
    ...load.events.map((e) =>
      e.kind === 'kill'
        ? `kill ${e.n}${e.server ? ` (server on ${e.server})` : ''}: SIGKILL to the process group with ${e.inFlight} operations in flight; answering again after ${e.downMs} ms`
        : e.failed
          ? `lock: NOT HELD — ${e.account}'s ledger rows could not be locked (${e.failed}); this run had no lock`
          : [
              `lock: ${e.account}'s ledger rows held ${e.heldMs} ms (locked at attempt ${e.attempts}${e.problem ? `; ${e.problem}` : ''}) with ${e.ops.length} keyed operations against it in flight:`,
              ...e.ops.map((op) => `  #${op.index} ${op.kind}: ${history(op)}`),
            ].join('\n'),
    ),
    `effects found: ${withEffect} operations with an effect (by marker / unique amount / the quote's posting)`,
    `jobs after settling: ${JSON.stringify(jobs.states)}; ${jobs.stillRunning} still RUNNING`,
  ];
  console.log(lines.join('\n'));
  const byRule = new Map();
  for (const v of violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  if (!violations.length) {
    console.log('\nno violations: every key took effect at most once and every invariant held');
    return;
  }
  console.log(`\n=== ${violations.length} violation(s) ===`);
  for (const [rule, list] of byRule) console.log(`${rule}: ${list.length}`);
  for (const [rule, list] of byRule)
    for (const v of list)
      console.log(
        `[${rule}] ${v.op ? `#${v.op.index} ${v.op.kind}${v.op.duringLock ? ' (during lock)' : ''} key ${v.op.key}: ` : ''}${v.detail}`,
      );
}

/** How the attempts spread over the servers (--servers): sent, and answered, per server. */
function spread(ops, servers) {
  const per = new Map(servers.map((s, i) => [s.base, { n: i + 1, sent: 0, answered: 0 }]));
  for (const op of ops)
    for (const s of op.senders)
      for (const a of s.attempts) {
        const p = per.get(a.server);
        if (!p) continue;
        p.sent++;
        if (!a.error) p.answered++;
      }
  return `servers: ${[...per.entries()].map(([base, p]) => `server ${p.n} (${base}) ${p.sent} attempts, ${p.answered} answered`).join('; ')}`;
}

/** One operation as recorded: its bodies, and every attempt of every sender (times in ms since the epoch). */
function recorded(op, effects) {
  const attempt = (a) => ({
    sentAt: a.sentAt,
    endedAt: Number.isFinite(a.endedAt) ? a.endedAt : null,
    ...(a.error ? { error: a.error } : { status: a.status, replayed: a.replayed, shouldRetry: a.shouldRetry }),
    ...(a.text ? { body: a.text.slice(0, 400) } : {}),
  });
  return {
    index: op.index,
    kind: op.kind,
    key: op.key,
    plan: op.plan ?? null,
    duringLock: Boolean(op.duringLock),
    variants: Object.fromEntries(Object.entries(op.variants).map(([v, b]) => [v, { path: b.path, body: b.body }])),
    senders: op.senders.map((s) => ({ role: s.role, variant: s.variant, attempts: s.attempts.map(attempt) })),
    effects: effects.get(op.index) ?? [],
  };
}

/**
 * With violations: the recorded attempts of the operations they name and of the lock's operations,
 * with the run's events, written to a JSON file in the temporary directory. Returns its path.
 */
export function writeRecord({ o, load, effects, violations }) {
  const named = new Set(violations.filter((v) => v.op).map((v) => v.op.index));
  const ops = load.all.filter((op) => named.has(op.index) || op.duringLock);
  const events = load.events.map(({ ops: list, ...e }) => ({ ...e, ops: list?.map((op) => op.index) }));
  const file = path.join(tmpdir(), `corridor-soak-${o.seed}-${Date.now().toString(36)}.json`);
  const record = {
    seed: o.seed,
    db: o.db,
    options: o,
    events,
    violations: violations.map((v) => ({ rule: v.rule, op: v.op?.index, detail: v.detail })),
    ops: ops.map((op) => recorded(op, effects)),
  };
  writeFileSync(file, JSON.stringify(record, null, 1));
  return file;
}
