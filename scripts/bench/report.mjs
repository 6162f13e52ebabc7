// The bench's printed figures for one database.
import { availableParallelism } from 'node:os';
import { CONCURRENCY, SECONDS } from './measure.mjs';

export function report(r) {
  const f = (n) => n.toFixed(1);
  const f2 = (n) => n.toFixed(2);
  console.log(
    `\n== ${r.label} (${CONCURRENCY} concurrent, ${SECONDS} s each, ${r.processes ?? '?'} server process(es), ${availableParallelism()} CPUs) ==`,
  );
  console.log(
    `bare route   GET /api/health         ${f(r.bare.perSecond)} req/s   p50 ${f(r.bare.p50)} ms   p99 ${f(r.bare.p99)} ms   errors ${r.bare.errors}${r.bare.serverCpuMs !== null ? `   server CPU ${f2(r.bare.serverCpuMs)} ms/request` : ''}`,
  );
  const ratio = (x) => (r.bare.perSecond ? ` = ${(x.perSecond / r.bare.perSecond).toFixed(2)} x bare` : '');
  console.log(
    `read         GET /customers/{id}     ${f(r.getCustomer.perSecond)} req/s   p50 ${f(r.getCustomer.p50)} ms   p99 ${f(r.getCustomer.p99)} ms   errors ${r.getCustomer.errors}${ratio(r.getCustomer)}`,
  );
  console.log(
    `write        POST /customers         ${f(r.postCustomer.perSecond)} req/s   p50 ${f(r.postCustomer.p50)} ms   p99 ${f(r.postCustomer.p99)} ms   errors ${r.postCustomer.errors}${ratio(r.postCustomer)}${r.postCustomer.firstError ? ` (${r.postCustomer.firstError.slice(0, 200)})` : ''}`,
  );
  console.log(
    `payment flow quote + execute          ${f(r.flow.perSecond)} flows/s p50 ${f(r.flow.p50)} ms   p99 ${f(r.flow.p99)} ms   errors ${r.flow.errors}${r.flow.firstError ? ` (${r.flow.firstError.slice(0, 200)})` : ''}`,
  );
  if (r.perFlow) {
    const p = r.perFlow;
    console.log(
      `per flow     ${f(p.statements)} SQL statements (both requests and the settlement), ${f(p.transactions)} interactive transactions, ${f(p.dbMs)} ms waiting on the database`,
    );
    const http = r.bare.serverCpuMs !== null ? 2 * r.bare.serverCpuMs : null;
    console.log(
      `  CPU        server ${f2(p.serverCpuMs)} ms${http !== null ? ` (HTTP layer ~${f2(http)} ms for the two requests, application + Prisma + driver + worker ~${f2(p.serverCpuMs - http)} ms)` : ''}${p.databaseCpuMs !== null ? `, database ${f2(p.databaseCpuMs)} ms` : ''}`,
    );
  }
  if (process.env.BENCH_STATEMENTS === '1')
    for (const st of r.statements ?? [])
      console.log(`  statement  ${st.n.toFixed(2)}/flow ${st.ms.toFixed(2)} ms/flow  ${st.text}`);
  console.log(
    `settlement   ${r.drain.pending} payouts in flight when the load stopped, all settled ${f(r.drain.seconds)} s later`,
  );
}
