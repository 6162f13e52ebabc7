-- The W3C traceparent of the span that recorded a webhook event (issue 28, traces): each delivery
-- attempt's span links back to the request or job that caused the event. Null when tracing is off
-- (OTEL_EXPORTER_OTLP_ENDPOINT unset).
ALTER TABLE "Event" ADD COLUMN "traceParent" TEXT;
