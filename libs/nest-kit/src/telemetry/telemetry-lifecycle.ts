import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { NodeSDK } from '@opentelemetry/sdk-node';

/** Flushes the spans still buffered when the service shuts down. */
@Injectable()
export class TelemetryLifecycle implements OnApplicationShutdown {
  constructor(private readonly sdk: NodeSDK) {}

  async onApplicationShutdown(): Promise<void> {
    await this.sdk.shutdown();
  }
}
