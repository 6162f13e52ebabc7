// The per-key rules, judged from every recorded answer and the effects found in the database.
// A "final" answer is one the client acts on (not a connection error, 5xx, 429 or "in progress").
//   effect-twice            a key's effect exists more than once
//   no-answer               a sender never got a final answer
//   different-answers       the same body under one key got final answers that differ in any byte
//   changed-body-accepted   the body that did not win the key got something other than a 4xx
//   two-bodies-succeeded    both bodies of one key were answered with success
//   committed-not-answered  the effect exists but the body that made it was not answered with
//                           success naming it (e.g. 409 on the retry of a committed execution)
//   success-without-effect  a success answer for which no effect exists
//   5xx-for-committed-work  the only attempts that can have made an effect (the ones in flight
//                           when the service created it and not refused with a 4xx) got 5xx
import { answeredId, KEY_SCOPED } from './operations.mjs';
import { parseBody } from './http.mjs';

const ok = (a) => a && a.status >= 200 && a.status < 300;
const is4xx = (a) => a && a.status >= 400 && a.status < 500;
const show = (a) => (a ? (a.error ? `conn:${a.error}` : String(a.status)) : 'none');
const answerKey = (a) => `${a.status}\n${a.bytes.toString('base64')}`;
// Server clock (truncated to ms by the database) against the client's: same machine.
const SLACK_MS = 5;

/** Each sender's attempts in order, repeats folded ("conn:ECONNREFUSED x12"). */
export function history(op) {
  const fold = (list) => {
    const out = [];
    for (const x of list) {
      const last = out.at(-1);
      if (last && last.x === x) last.n++;
      else out.push({ x, n: 1 });
    }
    return out.map(({ x, n }) => (n > 1 ? `${x} x${n}` : x)).join(' ');
  };
  return op.senders.map((s) => `${s.role}(${s.variant}): ${fold(s.attempts.map(show))} -> ${show(s.final)}`).join('; ');
}

export function judge(op, effects) {
  const v = [];
  const add = (rule, detail) => v.push({ rule, op, detail: `${detail} | ${history(op)}` });
  const finals = { a: [], b: [] };
  for (const s of op.senders) {
    if (!s.final) add('no-answer', `${s.role} gave up after ${s.attempts.length} attempts`);
    else finals[s.variant].push(s.final);
  }
  const keyScoped = KEY_SCOPED.has(op.kind);
  if (effects.length > 1)
    add(
      'effect-twice',
      `${effects.length} effects: ${effects.map((e) => `${e.id}(${e.variant ?? 'key'})`).join(', ')}`,
    );

  for (const variant of ['a', 'b']) {
    const distinct = new Set(finals[variant].map(answerKey));
    if (distinct.size > 1)
      add(
        'different-answers',
        `body ${variant} answered ${finals[variant].map((a) => `${a.status}:${a.text.slice(0, 80)}`).join(' / ')}`,
      );
  }

  // Which body won the key: the one whose effect exists, else the one answered with success.
  const succeeded = ['a', 'b'].filter((x) => finals[x].some(ok));
  let winner = keyScoped ? null : (effects[0]?.variant ?? null);
  if (keyScoped || !winner) {
    if (succeeded.length > 1) add('two-bodies-succeeded', 'both bodies answered with success');
    winner = winner ?? succeeded[0] ?? null;
  }
  if (winner) {
    const loser = winner === 'a' ? 'b' : 'a';
    for (const a of finals[loser])
      if (!is4xx(a)) add('changed-body-accepted', `body ${loser} (not the key's) answered ${a.status}`);
  }

  if (effects.length) {
    const mine = winner ? finals[winner] : [];
    if (!mine.length || !mine.every(ok))
      add(
        'committed-not-answered',
        `effect ${effects.map((e) => e.id).join(', ')} exists; ${
          winner
            ? `its body was answered ${mine.map(show).join(', ') || 'never'}`
            : `no body was answered with success (${[...finals.a, ...finals.b].map(show).join(', ') || 'no answer'})`
        }`,
      );
    for (const a of mine.filter(ok)) {
      const id = answeredId(op.kind, parseBody(a));
      if (id !== undefined && !effects.some((e) => e.id === id))
        add('committed-not-answered', `answer names ${id}, the effect is ${effects.map((e) => e.id).join(', ')}`);
    }
  }
  for (const variant of succeeded) {
    const own = effects.filter((e) => e.variant === null || e.variant === variant);
    if (!own.length) add('success-without-effect', `body ${variant} answered success; no effect found`);
  }

  for (const e of effects) {
    const candidates = op.senders
      .filter((s) => e.variant === null || s.variant === e.variant)
      .flatMap((s) => s.attempts)
      .filter((a) => a.sentAt - SLACK_MS <= e.at && e.at <= a.endedAt + SLACK_MS && !is4xx(a));
    if (candidates.length && candidates.every((a) => a.status >= 500))
      add(
        '5xx-for-committed-work',
        `effect ${e.posting ?? e.id} created at ${new Date(e.at).toISOString()} while only answers ${candidates.map(show).join(', ')} were in flight`,
      );
  }
  return v;
}

/** Figures of the load: requests, attempts and answers by kind. */
export function figures(ops) {
  const f = {
    operations: ops.length,
    byKind: {},
    duplicates: {},
    senders: 0,
    attempts: 0,
    connectionErrors: 0,
    status: {},
    replayed: 0,
  };
  for (const op of ops) {
    f.byKind[op.kind] = (f.byKind[op.kind] ?? 0) + 1;
    for (const s of op.senders) {
      f.senders++;
      if (s.role !== 'original') f.duplicates[s.role] = (f.duplicates[s.role] ?? 0) + 1;
      for (const a of s.attempts) {
        f.attempts++;
        if (a.error) f.connectionErrors++;
        else f.status[a.status] = (f.status[a.status] ?? 0) + 1;
        if (a.replayed) f.replayed++;
      }
    }
  }
  f.duplicateTotal = Object.values(f.duplicates).reduce((s, n) => s + n, 0);
  return f;
}
