/**
 * Optional OpenTelemetry traces. With none of the standard variables that ask for OTLP
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_TRACES_EXPORTER=otlp`)
 * nothing here loads a package or costs a request anything. With one, each HTTP request is a
 * server span (`GET /api/v1/links/[slug]`: method, route pattern, status; never the query string,
 * a header or a body) exported over OTLP/HTTP in batches. No spans for database queries: the
 * drizzle-orm version paylink uses has its tracing hooks switched off (docs/deploy.md, "Traces").
 */
import type { Span, Tracer } from '@opentelemetry/api';

type Env = Record<string, string | undefined>;

/** Whether the operator asked for OTLP traces, by OpenTelemetry's own variables. */
export function tracingWanted(env: Env = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase());
  if (exporters.includes('none')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || exporters.includes('otlp'));
}

export interface RequestSpan {
  end(route: string, status: number): void;
}

export interface Tracing {
  startRequest(method: string): RequestSpan;
  /** Sends what is still batched; at shutdown. */
  shutdown(): Promise<void>;
}

/** Loads the OpenTelemetry SDK only when asked for; undefined (and nothing loaded) otherwise. */
export async function startTracing(env: Env = process.env): Promise<Tracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  const [api, { TracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'paylink' }),
    // The exporter reads the endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables.
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  api.trace.setGlobalTracerProvider(provider);
  const tracer: Tracer = provider.getTracer('paylink');
  return {
    startRequest(method) {
      const span: Span = tracer.startSpan(method, { kind: api.SpanKind.SERVER, attributes: { 'http.request.method': method } });
      return {
        end(route, status) {
          span.updateName(`${method} ${route}`);
          span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
          if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
