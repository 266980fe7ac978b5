import { Module } from '@nestjs/common';
import { StreamsModule } from '../streams/streams.module.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [StreamsModule], controllers: [HealthController] })
export class HealthModule {}
