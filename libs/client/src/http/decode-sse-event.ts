import { parseEventLine, type ContractEvent, type Result } from '@llm-stream/contract';
import type { EventSourceMessage } from 'eventsource-parser';

/**
 * The contract event of one SSE record of the gateway (`id: <seq>`, `event: <type>`, `data: <json>`),
 * validated against the contract's JSON Schema and checked to belong to `streamId`; the failure as text.
 */
export function decodeSseEvent(record: EventSourceMessage, streamId: string): Result<ContractEvent, string> {
  const parsed = parseEventLine(record.data);
  if (!parsed.ok) return { ok: false, error: `not a contract event (${parsed.error.code}): ${parsed.error.message}` };
  const event = parsed.value;
  if (event.stream_id !== streamId) return { ok: false, error: `an event of stream ${event.stream_id} in stream ${streamId}` };
  if (record.id !== String(event.seq)) return { ok: false, error: `record id ${String(record.id)} is not the event's seq ${event.seq}` };
  if (record.event !== event.type) return { ok: false, error: `record event ${String(record.event)} is not the event's type ${event.type}` };
  return parsed;
}
