import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Content-Type of what {@link ServiceMetrics.render} returns: the Prometheus text exposition format 0.0.4. */
export const METRICS_CONTENT_TYPE: string = Registry.PROMETHEUS_CONTENT_TYPE;

/** A metric a service declares: its name, help text and label names (the label names type its label values). */
export interface MetricSpec<Label extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly Label[];
}

/** A histogram also names its bucket upper bounds. */
export interface HistogramSpec<Label extends string> extends MetricSpec<Label> {
  readonly buckets: readonly number[];
}

/**
 * A service's Prometheus metrics: a subclass declares its own as fields with {@link counter}, {@link gauge}
 * and {@link histogram}; the Node.js process metrics (prom-client's defaults) are collected beside them.
 * The metrics every service has (its message handlers') are declared here. They live in separate registries
 * so that {@link render} lists the service's own metrics first whatever the order of construction (subclass
 * fields are created after this constructor has run), then the shared ones, then the process's.
 */
export abstract class ServiceMetrics {
  private readonly own = new Registry();
  private readonly shared = new Registry();
  private readonly nodeProcess = new Registry();

  /** Messages the service's message handlers (the Nest transports) took, by transport, pattern and outcome. */
  readonly handledMessages: Counter<'transport' | 'pattern' | 'outcome'> = new Counter({
    name: 'llm_handler_messages_total',
    help: 'Messages handled by the message handlers, by transport, pattern and outcome (ack, nak, term, settled, replied, none, failed)',
    labelNames: ['transport', 'pattern', 'outcome'],
    registers: [this.shared],
  });

  /** How long a message handler ran (for a work item: the whole stream). */
  readonly handlerSeconds: Histogram<'transport' | 'pattern'> = new Histogram({
    name: 'llm_handler_duration_seconds',
    help: 'Duration of a message handler, by transport and pattern',
    labelNames: ['transport', 'pattern'],
    buckets: [0.0001, 0.001, 0.01, 0.1, 1, 10, 60, 600],
    registers: [this.shared],
  });

  constructor() {
    collectDefaultMetrics({ register: this.nodeProcess });
  }

  /** Every metric, in the text exposition format ({@link METRICS_CONTENT_TYPE}). */
  render(): Promise<string> {
    return Registry.merge([this.own, this.shared, this.nodeProcess]).metrics();
  }

  protected counter<Label extends string = never>(spec: MetricSpec<Label>): Counter<Label> {
    return new Counter({ ...spec, registers: [this.own] });
  }

  protected gauge<Label extends string = never>(spec: MetricSpec<Label>): Gauge<Label> {
    return new Gauge({ ...spec, registers: [this.own] });
  }

  protected histogram<Label extends string = never>(spec: HistogramSpec<Label>): Histogram<Label> {
    return new Histogram({ ...spec, buckets: [...spec.buckets], registers: [this.own] });
  }
}
