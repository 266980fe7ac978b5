import { Module } from '@nestjs/common';
import { StreamsModule } from '../streams/streams.module.js';
import { HealthController } from './health.controller.js';
import { NatsHealth } from './nats-health.js';

@Module({ imports: [StreamsModule], controllers: [HealthController], providers: [NatsHealth] })
export class HealthModule {}
