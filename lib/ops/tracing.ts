import * as api from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetector, detectResources, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { setTracing, tracing, type Tracing } from '../core/tracing';

// The OpenTelemetry SDK, loaded only when traces are on: instrumentation.ts imports this module
// (dynamically) when OTEL_EXPORTER_OTLP_ENDPOINT is set, and nothing else imports it. It registers
// the process's tracer provider — with the AsyncLocalStorage context manager and the W3C
// traceparent propagator — so Next.js's own request spans appear too, and hands Corridor's hooks
// (lib/core/tracing.ts) their tracer. Spans go to the OTLP/HTTP endpoint in batches; the
// exporter reads the standard variables itself (OTEL_EXPORTER_OTLP_ENDPOINT, …_TRACES_ENDPOINT,
// …_HEADERS), as does the batch processor (OTEL_BSP_*) and the sampler (OTEL_TRACES_SAMPLER).

export interface TracingOptions {
  /** Also send every span here as it ends (tests: an InMemorySpanExporter). */
  exporter?: SpanExporter;
  /** Export to the OTLP endpoint of the environment (default: when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  otlp?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Starts tracing for this process (once; a second call answers the first's). */
export function startTracing(options: TracingOptions = {}): Tracing {
  const running = tracing();
  if (running) return running;
  const env = options.env ?? process.env;
  const spanProcessors: SpanProcessor[] = [];
  if (options.otlp ?? Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT))
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  if (options.exporter) spanProcessors.push(new SimpleSpanProcessor(options.exporter));
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the defaults here.
  const resource = resourceFromAttributes({
    'service.name': 'corridor',
    'process.pid': process.pid,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  provider.register();
  const started: Tracing = {
    api,
    tracer: provider.getTracer('corridor'),
    async shutdown() {
      if (tracing() === started) setTracing(undefined);
      try {
        await provider.shutdown();
      } finally {
        // The API's globals go too, so that tracing can start again in this process (tests).
        api.trace.disable();
        api.context.disable();
        api.propagation.disable();
      }
    },
  };
  setTracing(started);
  return started;
}
