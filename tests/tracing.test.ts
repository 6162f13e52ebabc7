import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { tracing } from '@/lib/core/tracing';
import { startTracing } from '@/lib/ops/tracing';
import { db } from '@/lib/core/db';
import { runDueJobs } from '@/lib/jobs/queue';
import { eventsOf } from '@/lib/events/outbox';
import * as platforms from '@/lib/platform/repository';
import { deliverDueWebhooks } from '@/lib/webhooks/service';
import { receiverFor, type Receiver } from './support/webhook-receiver';
import { individual } from '@/lib/customers/testing';
import { HEADER, file, person, upload } from '@/lib/bulk-import/testing';
import { newPlatform, type TestPlatform } from './support/api';
import { staffActor } from './support/console-export';
import { runCommand } from '@/lib/core/command';
import * as staffCommands from '@/lib/staff/commands';
import { advance, customerWithAccounts, externalAccount, fund } from './support/money';

// Issue 28 point 3: with traces on, a request's span holds its database statements, a job's span
// links back to the request that enqueued it, each webhook attempt's span to the request or job
// that recorded the event, and spans reach an OTLP/HTTP endpoint. Spans are read from an in-memory
// exporter and from a local HTTP receiver standing in for a collector.
const memory = new InMemorySpanExporter();
const posts: { path: string; type: string; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    posts.push({ path: req.url ?? '', type: String(req.headers['content-type']), body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

let p: TestPlatform;
const previousEndpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
const receivers: Receiver[] = [];
beforeAll(async () => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1'; // the webhook receivers listen on loopback
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  startTracing({ exporter: memory });
  p = await newPlatform({ embeddedWallet: false });
});
afterAll(async () => {
  await tracing()?.shutdown();
  if (previousEndpoint === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = previousEndpoint;
  await new Promise((resolve) => receiver.close(resolve));
  await Promise.all(receivers.map((r) => r.close()));
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
});

const spans = () => memory.getFinishedSpans();
const nanos = (t: [number, number]) => BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);
const childrenOf = (parent: ReadableSpan) =>
  spans().filter(
    (s) =>
      s.parentSpanContext?.spanId === parent.spanContext().spanId &&
      s.spanContext().traceId === parent.spanContext().traceId,
  );
function requestSpan(requestId: string | null): ReadableSpan {
  expect(requestId).toBeTruthy();
  const found = spans().filter((s) => s.attributes['corridor.request_id'] === requestId);
  expect(found).toHaveLength(1);
  return found[0];
}

let customerRequestId: string | null = null;

it("puts a request's database statements under its span, without their values", async () => {
  const res = await p.api.post('/customers', individual('Tracy Spanner', { platformCustomerId: 'trace-1' }));
  expect(res.status, res.text).toBe(201);
  customerRequestId = res.headers.get('x-request-id');
  const request = requestSpan(customerRequestId);
  expect(request.name).toBe('POST /customers');
  expect(request.attributes).toMatchObject({
    'http.request.method': 'POST',
    'http.route': '/customers',
    'http.response.status_code': 201,
    'corridor.platform_id': p.platformId,
  });

  const statements = childrenOf(request);
  expect(statements.length).toBeGreaterThan(0);
  for (const s of statements) {
    expect(s.attributes['db.system.name']).toBe('postgresql');
    expect(typeof s.attributes['db.query.text']).toBe('string');
    // Each statement ran within the request.
    expect(nanos(s.startTime)).toBeGreaterThanOrEqual(nanos(request.startTime));
    expect(nanos(s.endTime)).toBeLessThanOrEqual(nanos(request.endTime));
  }
  // The write itself (inside the request's transaction), named by its operation and table.
  expect(statements.map((s) => s.name)).toContain('INSERT Customer');
  // Parameters stay parameters: the customer's name is on no span.
  expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain('Tracy Spanner');
});

it("continues the caller's trace from its traceparent header", async () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const res = await p.api.get('/customers', {
    headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    query: { limit: 1 },
  });
  expect(res.status).toBe(200);
  const request = requestSpan(res.headers.get('x-request-id'));
  expect(request.spanContext().traceId).toBe(traceId);
  expect(request.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  expect(childrenOf(request).length).toBeGreaterThan(0);
});

it('runs a job in a span of its own, linked to the request that enqueued it', async () => {
  const res = await upload(p.api, file(HEADER, person('trace-job-1')));
  expect(res.status, res.text).toBe(202);
  const request = requestSpan(res.headers.get('x-request-id'));
  const { traceId, spanId } = request.spanContext();
  const job = await db().job.findFirstOrThrow({
    where: { platformId: p.platformId, kind: 'BULK_CUSTOMER_IMPORT', state: 'PENDING' },
  });
  expect(job.traceParent).toBe(`00-${traceId}-${spanId}-01`);
  // The request's transaction (a connection the pool hands out) is traced statement by statement.
  const names = childrenOf(request).map((s) => s.name);
  expect(names).toEqual(expect.arrayContaining(['BEGIN', 'INSERT Job', 'COMMIT']));

  expect(await runDueJobs({ platformId: p.platformId })).toBeGreaterThan(0);
  const jobSpans = spans().filter((s) => s.attributes['corridor.job.id'] === job.id);
  expect(jobSpans).toHaveLength(1);
  const jobSpan = jobSpans[0];
  expect(jobSpan.name).toBe('job BULK_CUSTOMER_IMPORT');
  // A trace of its own (it runs apart from the request), linked back to the request's span.
  expect(jobSpan.parentSpanContext).toBeUndefined();
  expect(jobSpan.spanContext().traceId).not.toBe(traceId);
  expect(jobSpan.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[traceId, spanId]]);
  // The job's statements are under its span.
  expect(childrenOf(jobSpan).some((s) => s.attributes['db.system.name'] === 'postgresql')).toBe(true);
  const imported = await p.api.get('/customers', { query: { platformCustomerId: 'trace-job-1' } });
  expect(imported.body.totalCount).toBe(1);
});

it("links a payment's settlement job, written in the payment's own statement, to the execute request", async () => {
  const h = await customerWithAccounts(p, 'Traced Sender', ['USD']);
  await fund(p, h.accounts.USD, 100_000);
  const dest = await externalAccount(p, h.customerId, 'EUR', '123');
  const q = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: dest },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  expect(q.status, q.text).toBe(201);
  const ex = await p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  const { traceId, spanId } = requestSpan(ex.headers.get('x-request-id')).spanContext();
  const job = await db().job.findFirstOrThrow({ where: { platformId: p.platformId, kind: 'payment.settle' } });
  expect(job.traceParent).toBe(`00-${traceId}-${spanId}-01`);
  // So do the balance events the same statement records (their webhook attempts link to the request).
  const balances = await eventsOf(p.platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
  expect(balances.filter((e) => e.traceParent === job.traceParent).length).toBeGreaterThan(0);

  await advance(p, 5); // the settlement is due: the worker runs it
  expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).state).toBe('DONE');
  const settle = spans().find((s) => s.attributes['corridor.job.id'] === job.id);
  expect(settle?.name).toBe('job payment.settle');
  expect(settle!.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[traceId, spanId]]);
});

it('makes each webhook attempt a span linked to the request or job that recorded the event, its traceparent sent along', async () => {
  const q = await newPlatform({ embeddedWallet: false });
  // Each event's first attempt is refused (the TEST events' taken), the next one taken.
  const { rx } = await receiverFor(q, (r, n) => ({ status: r.json.type !== 'TEST' && n === 1 ? 503 : 200 }));
  receivers.push(rx);
  const res = await q.api.post('/customers', individual('Webb Hooker', { platformCustomerId: 'trace-hook-1' }));
  expect(res.status, res.text).toBe(201);
  const request = requestSpan(res.headers.get('x-request-id'));
  const { traceId, spanId } = request.spanContext();
  const [event] = (await eventsOf(q.platformId)).filter((e) => e.subjectId === res.body.id);
  // The event remembers the span of the request that recorded it (in the request's transaction).
  expect(event.traceParent).toBe(`00-${traceId}-${spanId}-01`);
  const attemptsOf = (eventId: string) => spans().filter((s) => s.attributes['corridor.webhook.event_id'] === eventId);
  const linksOf = (span: ReadableSpan) => span.links.map((l) => [l.context.traceId, l.context.spanId]);

  // Sent as the worker sends it, outside any request: a trace of its own, linked to the request.
  await deliverDueWebhooks({ platformId: q.platformId });
  expect(attemptsOf(event.id)).toHaveLength(1);
  const first = attemptsOf(event.id)[0];
  expect(first.name).toBe(`webhook ${event.type}`);
  expect(first.kind).toBe(SpanKind.CLIENT);
  expect(first.parentSpanContext).toBeUndefined();
  expect(first.spanContext().traceId).not.toBe(traceId);
  expect(linksOf(first)).toEqual([[traceId, spanId]]);
  expect(first.attributes).toMatchObject({
    'http.request.method': 'POST',
    'url.scheme': 'http',
    'server.address': '127.0.0.1',
    'server.port': rx.port,
    'corridor.platform_id': q.platformId,
    'corridor.webhook.event_type': event.type,
    'corridor.webhook.attempt': 1,
    'http.response.status_code': 503,
    'corridor.webhook.outcome': 'PENDING',
    'error.type': '503',
  });
  expect(first.status.code).toBe(SpanStatusCode.ERROR);
  // The receiver got the attempt's traceparent beside the signature; the recording is under the span.
  const [received] = rx.forId(event.id);
  expect(received.signatureValid).toBe(true);
  expect(received.headers.traceparent).toBe(`00-${first.spanContext().traceId}-${first.spanContext().spanId}-01`);
  expect(childrenOf(first).map((s) => s.name)).toContain('INSERT WebhookAttempt');

  // The retry, due on the platform's clock: another trace, linked to the same request.
  await platforms.advanceClock(q.platformId, 20_000n);
  await deliverDueWebhooks({ platformId: q.platformId });
  const second = attemptsOf(event.id).find((s) => s.attributes['corridor.webhook.attempt'] === 2);
  expect(second?.attributes).toMatchObject({
    'http.response.status_code': 200,
    'corridor.webhook.outcome': 'DELIVERED',
  });
  expect(second!.attributes['error.type']).toBeUndefined();
  expect(second!.status.code).not.toBe(SpanStatusCode.ERROR);
  expect(second!.spanContext().traceId).not.toBe(first.spanContext().traceId);
  expect(linksOf(second!)).toEqual([[traceId, spanId]]);
  // Never the body, the signature or the endpoint's path on an attempt's span.
  const attributes = JSON.stringify(attemptsOf(event.id).map((s) => s.attributes));
  for (const secret of ['Webb Hooker', received.signature!, '/hooks', res.body.id])
    expect(attributes).not.toContain(secret);

  // An event a job records (the import's outcome, in the job's transaction) links to the job's span.
  const upload1 = await upload(q.api, file(HEADER, person('trace-hook-2')));
  expect(upload1.status, upload1.text).toBe(202);
  await runDueJobs({ platformId: q.platformId });
  const job = spans().find(
    (s) => s.name === 'job BULK_CUSTOMER_IMPORT' && s.attributes['corridor.platform_id'] === q.platformId,
  );
  expect(job).toBeDefined();
  const [outcome] = await eventsOf(q.platformId, 'BULK_UPLOAD.COMPLETED');
  await deliverDueWebhooks({ platformId: q.platformId });
  const [fromJob] = attemptsOf(outcome.id);
  expect(fromJob.name).toBe('webhook BULK_UPLOAD.COMPLETED');
  expect(linksOf(fromJob)).toEqual([[job!.spanContext().traceId, job!.spanContext().spanId]]);

  // A test send made within a request is an attempt under the request's span.
  const test = await q.api.post('/sandbox/webhooks/test');
  expect(test.status, test.text).toBe(200);
  const testRequest = requestSpan(test.headers.get('x-request-id'));
  const sent = childrenOf(testRequest).filter((s) => s.name === 'webhook TEST');
  expect(sent).toHaveLength(1);
  expect(sent[0].attributes).toMatchObject({
    'http.response.status_code': 200,
    'corridor.webhook.outcome': 'DELIVERED',
  });
  expect(rx.received.at(-1)!.headers.traceparent).toBe(
    `00-${sent[0].spanContext().traceId}-${sent[0].spanContext().spanId}-01`,
  );
});

it("runs a console command in a span of its own when Next.js opened none: a replay's attempt under it", async () => {
  const q = await newPlatform({ embeddedWallet: false });
  const { rx } = await receiverFor(q, () => ({ status: 200 }));
  receivers.push(rx);
  const res = await q.api.post('/customers', individual('Rhea Player', { platformCustomerId: 'trace-replay-1' }));
  expect(res.status, res.text).toBe(201);
  const [event] = (await eventsOf(q.platformId)).filter((e) => e.subjectId === res.body.id);
  await deliverDueWebhooks({ platformId: q.platformId }); // delivered once: replay sends it again
  const operator = await staffActor(q.platformId, 'operator');
  // As a server action runs it: no span is active here.
  expect(tracing()!.api.trace.getActiveSpan()).toBeUndefined();
  await runCommand(staffCommands.replayWebhook, operator, { eventId: event.id });
  const commandSpans = spans().filter(
    (s) => s.name === 'command console.webhook.replay' && s.attributes['corridor.platform_id'] === q.platformId,
  );
  expect(commandSpans).toHaveLength(1);
  const [command] = commandSpans;
  expect(command.kind).toBe(SpanKind.SERVER);
  expect(command.parentSpanContext).toBeUndefined();
  expect(command.attributes['corridor.actor']).toBe('staff');
  const children = childrenOf(command);
  const attempt = children.find((s) => s.name === `webhook ${event.type}`);
  expect(attempt?.attributes).toMatchObject({
    'corridor.webhook.event_id': event.id,
    'http.response.status_code': 200,
  });
  // Its statements are under it too, and the receiver got the attempt's traceparent.
  expect(children.some((s) => s.attributes['db.system.name'] === 'postgresql')).toBe(true);
  expect(rx.forId(event.id).at(-1)!.headers.traceparent).toBe(
    `00-${attempt!.spanContext().traceId}-${attempt!.spanContext().spanId}-01`,
  );

  // A refused command's span says so (a viewer may not replay), and the refusal still reaches the caller.
  const viewer = await staffActor(q.platformId, 'viewer');
  await expect(runCommand(staffCommands.replayWebhook, viewer, { eventId: event.id })).rejects.toMatchObject({
    code: 'FORBIDDEN',
  });
  const refused = spans().filter(
    (s) => s.name === 'command console.webhook.replay' && s.attributes['corridor.platform_id'] === q.platformId,
  );
  expect(refused).toHaveLength(2);
  expect(refused[1].status.code).toBe(SpanStatusCode.ERROR);
});

it('exports the spans to the OTLP/HTTP endpoint, and stops tracing when shut down', async () => {
  await tracing()!.shutdown();
  expect(tracing()).toBeUndefined();
  const traces = posts.filter((post) => post.path === '/v1/traces');
  expect(traces.length).toBeGreaterThan(0);
  expect(traces[0].type).toContain('application/json');
  type Attribute = { key: string; value: { stringValue?: string } };
  type OtlpSpan = { name: string; spanId: string; parentSpanId?: string; attributes: Attribute[] };
  const exported: OtlpSpan[] = traces.flatMap((post) =>
    JSON.parse(post.body).resourceSpans.flatMap((r: { scopeSpans: { spans: OtlpSpan[] }[] }) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
  const request = exported.find((s) =>
    s.attributes.some((a) => a.key === 'corridor.request_id' && a.value.stringValue === customerRequestId),
  );
  expect(request?.name).toBe('POST /customers');
  expect(exported.some((s) => s.parentSpanId === request!.spanId && s.name === 'INSERT Customer')).toBe(true);
  const service = JSON.parse(traces[0].body).resourceSpans[0].resource.attributes as Attribute[];
  expect(service).toContainEqual({ key: 'service.name', value: { stringValue: 'corridor' } });

  // Off again: requests answer as before, and a job they enqueue refers to no span.
  const res = await upload(p.api, file(HEADER, person('trace-job-2')));
  expect(res.status, res.text).toBe(202);
  const job = await db().job.findFirstOrThrow({
    where: { platformId: p.platformId, kind: 'BULK_CUSTOMER_IMPORT', state: 'PENDING' },
  });
  expect(job.traceParent).toBeNull();
  // Nor does an event it records, and a webhook goes out without a traceparent.
  const q = await newPlatform({ embeddedWallet: false });
  const { rx } = await receiverFor(q);
  receivers.push(rx);
  const created = await q.api.post('/customers', individual('Untraced Person', { platformCustomerId: 'trace-off-1' }));
  expect(created.status, created.text).toBe(201);
  const [event] = (await eventsOf(q.platformId)).filter((e) => e.subjectId === created.body.id);
  expect(event.traceParent).toBeNull();
  await deliverDueWebhooks({ platformId: q.platformId });
  const [received] = rx.forId(event.id);
  expect(received.signatureValid).toBe(true);
  expect(received.headers.traceparent).toBeUndefined();
});
