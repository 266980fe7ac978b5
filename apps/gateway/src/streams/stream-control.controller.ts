import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { CANCEL_SUBJECTS, READER_SUBJECTS, controlSubjectStreamId, decodeCancelRequest, decodeReaderNotice, encodeCancelReply } from '@llm-stream/contract';
import { CORE_NATS, CoreNatsContext } from '@llm-stream/nest-kit';
import { StreamRegistry } from './stream-registry.service.js';

/** The control messages between gateway instances (core NATS), for the streams this instance holds. */
@Controller()
export class StreamControlController {
  constructor(private readonly registry: StreamRegistry) {}

  /** `llm.control.cancel.<stream_id>`: answered only by the instance that holds the stream. */
  @MessagePattern(CANCEL_SUBJECTS, CORE_NATS)
  cancel(@Payload() data: string, @Ctx() context: CoreNatsContext): string | undefined {
    const streamId = controlSubjectStreamId(context.subject);
    const request = decodeCancelRequest(data);
    if (streamId === null || !request.ok || !this.registry.cancelRequested(streamId, request.value)) return undefined;
    return encodeCancelReply({ ok: true });
  }

  /** `llm.control.reader.<stream_id>`: a reader attached to or left another instance. */
  @EventPattern<typeof READER_SUBJECTS>(READER_SUBJECTS, CORE_NATS)
  reader(@Payload() data: string, @Ctx() context: CoreNatsContext): void {
    const streamId = controlSubjectStreamId(context.subject);
    const notice = decodeReaderNotice(data);
    if (streamId !== null && notice.ok) this.registry.readerNoticed(streamId, notice.value);
  }
}
