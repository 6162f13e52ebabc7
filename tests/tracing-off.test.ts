import { createRequire } from 'node:module';
import { afterAll, expect, it } from 'vitest';
import { currentCorridor, setAppCorridor } from '@/lib/core/context';
import { tracing } from '@/lib/core/tracing';
import { register } from '@/instrumentation';

// Issue 28 point 3: traces cost nothing when OTEL_EXPORTER_OTLP_ENDPOINT is unset — the server's
// start (instrumentation.ts register) loads none of the OpenTelemetry SDK and registers nothing —
// and set, the same start loads the SDK and turns them on. (Each test file runs in a process of
// its own.)
const loaded = () =>
  Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/node_modules/@opentelemetry/'));
// The API alone is a no-op facade: prom-client's process metrics load it for their exemplars
// whenever it is installed. Everything else (the SDK, its exporter) is traces' own.
const sdk = () => loaded().filter((file) => !file.includes('/node_modules/@opentelemetry/api/'));
// The API's global registrations (tracer provider, context manager, propagator) live here.
const otelGlobal = () => (globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')];

const app = currentCorridor();
const saved = {
  NEXT_RUNTIME: process.env.NEXT_RUNTIME,
  CORRIDOR_SKIP_BOOT: process.env.CORRIDOR_SKIP_BOOT,
  OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
};
afterAll(async () => {
  await tracing()?.shutdown();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  setAppCorridor(app);
});

it('loads no OpenTelemetry module when OTEL_EXPORTER_OTLP_ENDPOINT is unset, and the SDK when it is set', async () => {
  process.env.NEXT_RUNTIME = 'nodejs';
  process.env.CORRIDOR_SKIP_BOOT = '1'; // the instance only: no sandbox bootstrap, no worker
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const before = loaded();
  expect(sdk()).toEqual([]);

  await register();
  expect(loaded()).toEqual(before);
  expect(sdk()).toEqual([]);
  expect(tracing()).toBeUndefined();
  expect(otelGlobal()).toBeUndefined();

  // The same start with the variable set (nothing listens there; no span is made here).
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
  await register();
  expect(tracing()).toBeDefined();
  expect(sdk().some((f) => f.includes('/@opentelemetry/sdk-trace-node/'))).toBe(true);
  expect(sdk().some((f) => f.includes('/@opentelemetry/exporter-trace-otlp-http/'))).toBe(true);
  expect(otelGlobal()).toBeDefined();
});
