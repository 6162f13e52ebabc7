// A stand-in for an OpenTelemetry collector, to see Corridor's traces without running one.
//
//   node examples/otlp-receiver.mjs [port]
//
// It takes what an OTLP/HTTP exporter sends to <endpoint>/v1/traces (JSON, the encoding Corridor's
// exporter uses) and prints each span as one line:
//   span <traceId> <spanId> <parentSpanId or -> <name> [request=<X-Request-Id>] [links=<spanId,...>]
// so a request's span, its statements (children) and the jobs it enqueued (linked) can be found
// with grep. Anything else is answered 404. Stops on SIGTERM or SIGINT. In production, point
// OTEL_EXPORTER_OTLP_ENDPOINT at a real collector (OpenTelemetry Collector, Jaeger, Tempo, ...).
import http from 'node:http';

const port = Number(process.argv[2] ?? 4318);

const text = (attributes, key) => attributes?.find((a) => a.key === key)?.value?.stringValue;

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    for (const resource of body.resourceSpans ?? [])
      for (const scope of resource.scopeSpans ?? [])
        for (const span of scope.spans ?? []) {
          const request = text(span.attributes, 'corridor.request_id');
          const links = (span.links ?? []).map((l) => l.spanId).join(',');
          console.log(
            `span ${span.traceId} ${span.spanId} ${span.parentSpanId || '-'} ${span.name}` +
              (request ? ` request=${request}` : '') +
              (links ? ` links=${links}` : ''),
          );
        }
    // The exporter reads an empty ExportTraceServiceResponse as "all accepted".
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(port, '127.0.0.1', () => console.log(`OTLP receiver on http://127.0.0.1:${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
