import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { NatsHealth } from './nats-health.js';

@Module({ controllers: [HealthController], providers: [NatsHealth] })
export class HealthModule {}
