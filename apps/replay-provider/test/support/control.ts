/** Thin fetch wrappers over the replay provider's `/_replay/` control API. */

export interface LoggedRequest {
  readonly id: string;
  readonly provider: string;
  readonly model: string | null;
  readonly scenario: string | null;
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string | string[]>;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
  readonly started_at: number;
  readonly status: number | null;
  readonly served: string | null;
  readonly finished_at: number | null;
  readonly client_aborted: boolean;
  readonly aborted_at: number | null;
}

export async function registerScenario(baseUrl: string, scenario: unknown): Promise<string> {
  const response = await fetch(new URL('/_replay/scenarios', baseUrl), { method: 'POST', body: JSON.stringify(scenario) });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 201 || body.id === undefined) throw new Error(`scenario rejected: ${JSON.stringify(body)}`);
  return body.id;
}

export async function loggedRequests(baseUrl: string, filter: Readonly<Record<string, string>> = {}): Promise<LoggedRequest[]> {
  const url = new URL('/_replay/requests', baseUrl);
  for (const [key, value] of Object.entries(filter)) url.searchParams.set(key, value);
  const response = await fetch(url);
  return ((await response.json()) as { requests: LoggedRequest[] }).requests;
}

/** Polls until `predicate` holds (no fixed sleeps: the condition is what the test waits for). */
export async function waitFor<T>(probe: () => Promise<T>, predicate: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (predicate(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
