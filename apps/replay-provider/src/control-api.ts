import type { ServerResponse } from 'node:http';
import { parseJsonBody, sendError, sendJson } from './http-io.js';
import type { RequestLog } from './request-log.js';
import { parseScenario } from './scenario-schema.js';
import type { ScenarioStore } from './scenario-store.js';
import type { TranscriptStore } from './transcript-store.js';

export interface ControlDeps {
  readonly transcripts: TranscriptStore;
  readonly scenarios: ScenarioStore;
  readonly requestLog: RequestLog;
}

/** The methods each `/_replay/…` path accepts; anything else under `/_replay/` is a 404. */
export const CONTROL_ROUTES: Readonly<Record<string, readonly string[]>> = {
  '/_replay/health': ['GET'],
  '/_replay/scenarios': ['POST', 'DELETE'],
  '/_replay/requests': ['GET', 'DELETE'],
};

/** The test-control API (README.md, "Control API"). `method` has already been checked against CONTROL_ROUTES. */
export function handleControl(
  method: string,
  pathname: string,
  query: URLSearchParams,
  body: Buffer,
  response: ServerResponse,
  deps: ControlDeps,
): void {
  const route = `${method} ${pathname}`;
  switch (route) {
    case 'GET /_replay/health':
      sendJson(response, 200, { status: 'ok' });
      return;
    case 'POST /_replay/scenarios':
      registerScenario(body, response, deps);
      return;
    case 'DELETE /_replay/scenarios':
      deps.scenarios.clear();
      response.writeHead(204).end();
      return;
    case 'GET /_replay/requests':
      sendJson(response, 200, {
        requests: deps.requestLog.list({ scenario: query.get('scenario'), model: query.get('model') }),
      });
      return;
    case 'DELETE /_replay/requests':
      deps.requestLog.clear();
      response.writeHead(204).end();
      return;
    default:
      sendError(response, 404, 'not_found', `no route for ${route}`);
  }
}

function registerScenario(body: Buffer, response: ServerResponse, deps: ControlDeps): void {
  const parsed = parseJsonBody(body);
  if (parsed.kind !== 'json') {
    sendError(response, 400, 'invalid_json', 'the body must be a JSON object {"responses": [...]}');
    return;
  }
  const scenario = parseScenario(parsed.value, deps.transcripts);
  if (!scenario.ok) {
    const { code, field, message } = scenario.error;
    sendError(response, 400, code, `${field === '' ? 'body' : field} ${message}`, { field });
    return;
  }
  sendJson(response, 201, { id: deps.scenarios.register(scenario.value) });
}
