import { Module } from '@nestjs/common';
import { AuditConfig } from '../config/audit-config.js';
import { loadConsoleFiles } from './console-files.js';
import { CONSOLE_FILES, ConsoleController } from './console.controller.js';

@Module({
  controllers: [ConsoleController],
  providers: [{ provide: CONSOLE_FILES, inject: [AuditConfig], useFactory: (config: AuditConfig) => loadConsoleFiles(config.AUDIT_CONSOLE_DIR) }],
})
export class ConsoleModule {}
