import { Module } from '@nestjs/common';
import { LagModule } from '../lag/lag.module.js';
import { HealthController } from './health.controller.js';
import { StoreHealth } from './store-health.js';

@Module({ imports: [LagModule], controllers: [HealthController], providers: [StoreHealth] })
export class HealthModule {}
