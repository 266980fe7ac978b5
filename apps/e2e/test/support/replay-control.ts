/** Thin fetch wrappers over the replay provider's `/_replay/` control API (see apps/replay-provider/README.md). */

export interface LoggedRequest {
  readonly id: string;
  readonly provider: string;
  readonly model: string | null;
  readonly scenario: string | null;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  readonly started_at: number;
  readonly status: number | null;
  readonly served: string | null;
  readonly finished_at: number | null;
  readonly client_aborted: boolean;
  readonly aborted_at: number | null;
}

/** Registers a scenario (`{responses: [...]}`) and returns its id; the model name to request is `scenario:<id>`. */
export async function registerScenario(replayUrl: string, scenario: { readonly responses: readonly unknown[] }): Promise<string> {
  const response = await fetch(new URL('/_replay/scenarios', replayUrl), { method: 'POST', body: JSON.stringify(scenario) });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 201 || body.id === undefined) throw new Error(`scenario rejected: ${JSON.stringify(body)}`);
  return body.id;
}

/** The provider requests the replay provider received for a scenario, oldest first. */
export async function scenarioRequests(replayUrl: string, scenarioId: string): Promise<LoggedRequest[]> {
  const url = new URL('/_replay/requests', replayUrl);
  url.searchParams.set('scenario', scenarioId);
  const response = await fetch(url);
  return ((await response.json()) as { requests: LoggedRequest[] }).requests;
}

/** Every provider request the replay provider received (or those for `model`), oldest first. */
export async function loggedRequests(replayUrl: string, model?: string): Promise<LoggedRequest[]> {
  const url = new URL('/_replay/requests', replayUrl);
  if (model !== undefined) url.searchParams.set('model', model);
  const response = await fetch(url);
  return ((await response.json()) as { requests: LoggedRequest[] }).requests;
}
