import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { NatsHealth } from './nats-health.js';
import { StoreHealth } from './store-health.js';

@Module({ controllers: [HealthController], providers: [NatsHealth, StoreHealth] })
export class HealthModule {}
