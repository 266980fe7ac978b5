import { SpanKind, SpanStatusCode, context, trace, type Context } from '@opentelemetry/api';
import type { ServiceMetrics } from '@llm-stream/observability';
import { JsonLogger, errorCode } from '@llm-stream/service-kit';

/** Which transport a handled message came through (the `transport` label). */
export type TransportName = 'core' | 'jetstream';

/**
 * What became of a handled message: JetStream settlements (`ack`, `nak`, `term`, `settled` by the handler
 * itself), a core request answered (`replied`) or not (`none`), or a handler that failed (`failed`).
 */
export type HandlerOutcome = 'ack' | 'nak' | 'term' | 'settled' | 'replied' | 'none' | 'failed';

/** What a handler call came to: one outcome, or one per message of a batch. */
export type HandledResult = { readonly outcome: HandlerOutcome } | { readonly outcomes: readonly HandlerOutcome[] };

/** One handler call, as the transports describe it. */
export interface HandledMessage {
  readonly transport: TransportName;
  readonly pattern: string;
  readonly subject: string;
  /** The trace the message continues (its `traceparent`); without one, no span is recorded. */
  readonly trace: Context | undefined;
  /** How many messages the call handles: more than one for a batch; default 1. */
  readonly count?: number;
}

/**
 * The one place where message handlers are observed, whichever transport called them: a counter by outcome
 * and a duration histogram per pattern, a span (`llm.handle <pattern>`) when the message carries a trace
 * context, and a log line when a handler fails (the error's code only: a message can quote data). The
 * per-frame hot path has no handler: it never comes through here.
 */
export class HandlerInstrumentation {
  private readonly tracer = trace.getTracer('llm-stream-nest-kit');

  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly logger: JsonLogger,
  ) {}

  /**
   * Runs `handle`, records what it resolved to (its outcome, or each message's of a batch) or that it failed;
   * rethrows a failure.
   */
  async observe<T extends HandledResult>(message: HandledMessage, handle: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const labels = { transport: message.transport, pattern: message.pattern };
    const span =
      message.trace === undefined
        ? undefined
        : this.tracer.startSpan(`llm.handle ${message.pattern}`, { kind: SpanKind.CONSUMER, attributes: { 'messaging.destination.name': message.subject } }, message.trace);
    try {
      const result = await (span === undefined ? handle() : context.with(trace.setSpan(message.trace ?? context.active(), span), handle));
      const outcomes = 'outcome' in result ? [result.outcome] : result.outcomes;
      for (const [outcome, count] of countOf(outcomes)) this.metrics.handledMessages.inc({ ...labels, outcome }, count);
      span?.setAttribute('llm.outcome', [...new Set(outcomes)].join(','));
      return result;
    } catch (error) {
      this.metrics.handledMessages.inc({ ...labels, outcome: 'failed' }, message.count ?? 1);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: errorCode(error) });
      this.logger.warn('message handler failed', { ...labels, subject: message.subject, error: errorCode(error) });
      throw error;
    } finally {
      this.metrics.handlerSeconds.observe(labels, (performance.now() - started) / 1000);
      span?.end();
    }
  }
}

function countOf(outcomes: readonly HandlerOutcome[]): Map<HandlerOutcome, number> {
  const counts = new Map<HandlerOutcome, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return counts;
}
