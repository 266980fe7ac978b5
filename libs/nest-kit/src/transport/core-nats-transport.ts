import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { HandlerInstrumentation, type HandlerOutcome } from './handler-instrumentation.js';
import { handlerResult } from './handler-result.js';

/** Names the core NATS transport in `@EventPattern(subject, CORE_NATS)` / `@MessagePattern(subject, CORE_NATS)`. */
export const CORE_NATS = Symbol('llm-stream-core-nats');

/** What a core NATS handler gets beside the payload: the message (subject, headers, reply subject). */
export class CoreNatsContext extends BaseRpcContext<[Msg]> {
  get message(): Msg {
    const [message] = this.getArgs();
    return message;
  }

  get subject(): string {
    return this.message.subject;
  }
}

/**
 * A transport of @nestjs/microservices on the process's own NATS connection (the NATS_CONNECTION provider):
 * one core subscription per pattern (a NATS subject, wildcards allowed), each message handed to its
 * `@EventPattern` / `@MessagePattern` handler with the payload as text and a {@link CoreNatsContext}. A
 * message handler answers a request by returning the encoded reply (a string); returning nothing sends no
 * reply, so another instance may answer. Handlers are observed in one place ({@link HandlerInstrumentation}).
 *
 * Not Nest's own NATS transport: that one opens a second connection per process and wraps payloads in its
 * own `{pattern, data, id}` envelope, which the messages the services exchange do not have.
 */
export class CoreNatsTransport extends Server implements CustomTransportStrategy {
  override readonly transportId = CORE_NATS;
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly instrumentation: HandlerInstrumentation,
  ) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      this.subscriptions.push(
        this.nc.subscribe(pattern, {
          callback: (error, message) => {
            // A subscription error (a permissions violation) ends the subscription; the connection reports it.
            if (error !== null) return;
            void this.dispatch(pattern, handler, message).catch(() => undefined);
          },
        }),
      );
    }
    callback();
  }

  close(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }

  /** The transport reports no events of its own: the connection's `status()` is the place to watch. */
  on(): never {
    throw new Error('CoreNatsTransport emits no events: watch the NATS connection status() instead');
  }

  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Server.unwrap's own signature
  unwrap<T>(): T {
    return this.nc as T;
  }

  private dispatch(pattern: string, handler: MessageHandler, message: Msg): Promise<{ outcome: HandlerOutcome }> {
    return this.instrumentation.observe({ transport: 'core', pattern, subject: message.subject, trace: undefined }, async () => {
      const reply = await handlerResult(handler(message.string(), new CoreNatsContext([message])));
      if (handler.isEventHandler === true || reply === undefined) return { outcome: 'none' };
      if (typeof reply !== 'string') throw new TypeError(`the ${pattern} handler must reply with an encoded message (a string)`);
      if (message.reply === undefined || message.reply === '') return { outcome: 'none' };
      message.respond(reply);
      return { outcome: 'replied' };
    });
  }
}
