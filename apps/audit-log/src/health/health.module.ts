import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { StoreHealth } from './store-health.js';

@Module({ controllers: [HealthController], providers: [StoreHealth] })
export class HealthModule {}
