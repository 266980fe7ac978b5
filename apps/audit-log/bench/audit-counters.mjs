// The audit log's ingestion counters, read from its /metrics: what the benchmarks wait on.

/** Messages the audit log has stored (or found already stored) per consumer: contract events and raw records. */
export async function auditCounters(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (consumer) => {
    let total = 0;
    for (const outcome of ['stored', 'duplicate']) {
      const match = new RegExp(`^llm_audit_messages_total\\{consumer="${consumer}",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
      total += Number(match?.[1] ?? 0);
    }
    return total;
  };
  return { events: read('audit-events'), raw: read('audit-raw') };
}
