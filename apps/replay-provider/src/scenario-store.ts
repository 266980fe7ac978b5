import { randomBytes } from 'node:crypto';
import type { ScenarioDefinition, ScenarioResponse } from './scenario.js';

interface Entry {
  readonly responses: readonly [ScenarioResponse, ...ScenarioResponse[]];
  served: number;
}

/**
 * Registered scenarios. Each request to a scenario takes its next planned response; the last one repeats
 * forever, so `[429, transcript]` means "fail once, then succeed".
 */
export class ScenarioStore {
  private readonly scenarios = new Map<string, Entry>();

  /** Stores the scenario (replacing one with the same caller-chosen id, which restarts it) and returns its id. */
  register(definition: ScenarioDefinition): string {
    const id = definition.id ?? `sc_${randomBytes(9).toString('base64url')}`;
    this.scenarios.set(id, { responses: definition.responses, served: 0 });
    return id;
  }

  /** The response for the next request to scenario `id`, or null when no such scenario exists. */
  next(id: string): { readonly response: ScenarioResponse; readonly index: number } | null {
    const entry = this.scenarios.get(id);
    if (entry === undefined) return null;
    const index = Math.min(entry.served, entry.responses.length - 1);
    entry.served += 1;
    return { response: entry.responses[index] ?? entry.responses[0], index };
  }

  clear(): void {
    this.scenarios.clear();
  }
}
