import type { JsMsg } from '@nats-io/jetstream';
import type { FailureSettlement, MessageDelivery, SingleMessageHandler } from './message-delivery.js';
import { handBack, settle } from './settlement.js';

/** One message at a time: each is handled and settled before the next is taken. */
export class SingleDelivery implements MessageDelivery {
  private readonly stopping = new AbortController();
  private inHand: Promise<void> | undefined;

  constructor(
    private readonly handle: SingleMessageHandler,
    private readonly onFailure: FailureSettlement,
  ) {}

  start(): void {
    // Nothing runs beside the consume loop.
  }

  async take(message: JsMsg): Promise<void> {
    if (this.stopping.signal.aborted) {
      // Received after the stop: another instance takes it.
      handBack(message);
      return;
    }
    this.inHand = this.handleOne(message);
    await this.inHand;
    this.inHand = undefined;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.inHand;
  }

  private async handleOne(message: JsMsg): Promise<void> {
    try {
      settle(message, await this.handle(message, this.stopping.signal));
    } catch {
      // The handler reported its failure (the transport's instrumentation logs it): only its settlement is left.
      settle(message, this.onFailure);
    }
  }
}
