import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing, tracingWanted } from '../../../src/telemetry.ts';
import { useServedApp } from '../../support/app.ts';

/** OpenTelemetry traces: off (nothing loaded) without the OTEL_ variables; with them, a request is a span at the collector. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}
const received: Array<{ path: string; body: { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> } }> = [];
let collector: Server;
let endpoint: string;
const served = useServedApp();

beforeAll(async () => {
  // A local stand-in for an OTLP/HTTP collector: it keeps what it is sent.
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

const spans = () => received.flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
const attribute = (span: OtlpSpan, key: string) => Object.values(span.attributes.find((a) => a.key === key)?.value ?? {})[0];

describe('traces', () => {
  it('are wanted only when an OTLP endpoint or exporter is named, and never when disabled', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'paylink' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingWanted({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });

  it('without the variables, start nothing and send nothing while requests are served', async () => {
    expect(await startTracing({})).toBeUndefined();
    expect(served.t.app.tracing).toBeUndefined();
    expect((await fetch(`${served.server.url}/pay/acme-books`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT, send a server span per request: method, route pattern and status', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
    let tracing: Tracing | undefined;
    try {
      tracing = await startTracing();
      expect(tracing).toBeDefined();
      served.t.app.tracing = tracing;
      const logged = served.t.logs.length;
      const res = await fetch(`${served.server.url}/pay/acme-books?customer_email=maria%40example.com`);
      expect(res.status).toBe(200);
      await res.text();
      // The span ends with the request's log line (the response's close); then the batch is sent.
      await expect.poll(() => served.t.logs.slice(logged).some((l) => l.includes('"route":"/pay/[slug]"'))).toBe(true);
      await tracing!.shutdown();
    } finally {
      served.t.app.tracing = undefined;
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    }
    expect(received.map((r) => r.path)).toContain('/v1/traces');
    const request = spans().find((s) => s.name === 'GET /pay/[slug]');
    expect(request, JSON.stringify(spans().map((s) => s.name))).toBeDefined();
    expect(attribute(request!, 'http.route')).toBe('/pay/[slug]');
    expect(attribute(request!, 'http.response.status_code')).toBe(200);
    expect(attribute(request!, 'http.request.method')).toBe('GET');
    // Never the query string (where customer_email lives) in anything sent.
    expect(JSON.stringify(received)).not.toContain('maria');
  });
});
