import { METRICS_CONTENT_TYPE, ServiceMetrics } from './service-metrics.js';

class ExampleMetrics extends ServiceMetrics {
  readonly requests = this.counter({ name: 'example_requests_total', help: 'Requests, by route and status', labelNames: ['route', 'status'] });
  readonly open = this.gauge({ name: 'example_open', help: 'Open things' });
  readonly latency = this.histogram({ name: 'example_latency_seconds', help: 'Latency', labelNames: ['route'], buckets: [0.1, 1] });
}

describe('ServiceMetrics', () => {
  it("renders the service's metrics with their values, in the Prometheus text format", async () => {
    const metrics = new ExampleMetrics();
    metrics.requests.inc({ route: 'streams', status: '200' });
    metrics.requests.inc({ route: 'streams', status: '200' });
    metrics.open.set(3);
    metrics.latency.observe({ route: 'streams' }, 0.5);
    const text = await metrics.render();
    expect(text).toContain('# HELP example_requests_total Requests, by route and status\n# TYPE example_requests_total counter\n');
    expect(text).toContain('example_requests_total{route="streams",status="200"} 2\n');
    expect(text).toContain('# TYPE example_open gauge\nexample_open 3\n');
    expect(text).toContain('example_latency_seconds_bucket{le="0.1",route="streams"} 0\n');
    expect(text).toContain('example_latency_seconds_bucket{le="1",route="streams"} 1\n');
  });

  it("lists the service's own metrics first, then the Node.js process metrics", async () => {
    const text = await new ExampleMetrics().render();
    const families = [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]);
    expect(families.slice(0, 3)).toEqual(['example_requests_total', 'example_open', 'example_latency_seconds']);
    expect(families).toContain('process_cpu_user_seconds_total');
    expect(families).toContain('nodejs_eventloop_lag_seconds');
  });

  it('keeps each instance apart (two services in one process do not collide)', async () => {
    const first = new ExampleMetrics();
    const second = new ExampleMetrics();
    first.open.set(1);
    second.open.set(2);
    expect(await first.render()).toContain('example_open 1\n');
    expect(await second.render()).toContain('example_open 2\n');
  });

  it('is served as the text exposition format 0.0.4', () => {
    expect(METRICS_CONTENT_TYPE).toBe('text/plain; version=0.0.4; charset=utf-8');
  });
});
