import type { AuditRawRecord, AuditView } from '../recorded-run.js';

interface StreamAnswer {
  readonly stream: { readonly status: string; readonly gateway_id: string | null };
  readonly events: readonly { readonly seq: number }[];
}

async function json<T>(url: string, key: string): Promise<T | null> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  return (await response.json()) as T;
}

/** What the audit log answers about one stream: `/v1/streams/{id}`, `/raw` and `/verify`; null when unknown. */
export async function readAudit(auditUrl: string, key: string, streamId: string): Promise<AuditView | null> {
  const base = `${auditUrl}/v1/streams/${encodeURIComponent(streamId)}`;
  const stream = await json<StreamAnswer>(base, key);
  if (stream === null) return null;
  const raw = await json<{ readonly records: readonly (AuditRawRecord & { readonly record?: { readonly reason?: unknown } })[] }>(`${base}/raw`, key);
  const verify = await json<{ readonly ok: boolean }>(`${base}/verify`, key);
  return {
    status: stream.stream.status,
    gatewayId: stream.stream.gateway_id,
    eventSeqs: stream.events.map((event) => event.seq),
    verifyOk: verify?.ok === true,
    verifyDetail: verify === null ? 'no /verify answer' : JSON.stringify(verify).slice(0, 300),
    raw: (raw?.records ?? []).map((record) => ({
      raw_seq: record.raw_seq,
      attempt: record.attempt,
      kind: record.kind,
      ...(record.text === undefined ? {} : { text: record.text }),
      ...(typeof record.record?.reason === 'string' ? { reason: record.record.reason } : {}),
    })),
  };
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let item = items[next]; item !== undefined; item = items[next]) {
      next += 1;
      await work(item);
    }
  });
  await Promise.all(lanes);
}
