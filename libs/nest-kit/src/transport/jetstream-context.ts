import { BaseRpcContext } from '@nestjs/microservices';

/** Which durable consumer delivered a message (the pattern is its durable name). */
export interface DeliveredBy {
  readonly stream: string;
  readonly consumer: string;
}

/**
 * What a JetStream handler gets beside the payload (the message, or the batch): the consumer that delivered it,
 * and a signal that aborts when the consumer stops (the service shuts down): a handler that waits (for a store
 * to come back) ends its wait then and hands what it holds back with a nak.
 */
export class JetStreamContext extends BaseRpcContext<[DeliveredBy, AbortSignal]> {
  get consumer(): string {
    const [deliveredBy] = this.getArgs();
    return deliveredBy.consumer;
  }

  get stream(): string {
    const [deliveredBy] = this.getArgs();
    return deliveredBy.stream;
  }

  get stopping(): AbortSignal {
    const [, stopping] = this.getArgs();
    return stopping;
  }
}
