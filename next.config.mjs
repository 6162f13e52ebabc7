/** @type {import('next').NextConfig} */
const nextConfig = {
  // Packages with native/wasm parts or dynamic requires stay outside the server bundle.
  serverExternalPackages: [
    'prom-client',
    '@electric-sql/pglite',
    '@electric-sql/pglite-socket',
    'pg',
    '@prisma/adapter-pg',
    // Traces (lib/ops/tracing.ts, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set): required by
    // Node as published rather than bundled into the instrumentation chunk.
    '@opentelemetry/api',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace-node',
  ],
  poweredByHeader: false,
  // Compression belongs to the reverse proxy in front; in-process gzip costs more CPU than the JSON it saves.
  compress: false,
  experimental: {
    // Server actions (the console's mutations) are checked by proxy.ts first
    // (lib/http/server-action-guard.ts), with the same limit and origins, so that what Next.js
    // would refuse with a 500 is refused there with a 4xx and the error body.
    serverActions: {
      bodySizeLimit: '1mb', // ACTION_BODY_LIMIT
      // Pages reached at CORRIDOR_PUBLIC_URL behind a proxy that rewrites Host.
      allowedOrigins: publicHost() ? [publicHost()] : [],
    },
  },
};

function publicHost() {
  try {
    return process.env.CORRIDOR_PUBLIC_URL ? new URL(process.env.CORRIDOR_PUBLIC_URL).host : '';
  } catch {
    return '';
  }
}
export default nextConfig;
