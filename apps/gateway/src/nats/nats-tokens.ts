// The tokens live in @llm-stream/nest-kit. This re-export only keeps the import of streams.service.ts, which
// is being rewritten on another branch: switch that import to @llm-stream/nest-kit and delete this file.
export { JETSTREAM, JETSTREAM_MANAGER, NATS_CONNECTION } from '@llm-stream/nest-kit';
