-- The W3C traceparent of the span that enqueued a job (issue 28, traces): the worker's span for
-- the job links back to it. Null when tracing is off (OTEL_EXPORTER_OTLP_ENDPOINT unset).
ALTER TABLE "Job" ADD COLUMN "traceParent" TEXT;
