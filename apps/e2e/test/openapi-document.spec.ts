import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runCommand } from '@llm-stream/testing';
import { apiErrorCodes } from './support/error-code-union.js';
import { HTTP_METHODS, WITHOUT_KEEP_ALIVE, fetchOpenApi, type OpenApiDocument } from './support/openapi-check.js';
import { startPipeline, type Pipeline } from './support/pipeline.js';
import { startAuditLog, type RunningService } from './support/services.js';

interface ResponseObject {
  readonly content?: Readonly<Record<string, { readonly schema?: { readonly properties?: { readonly error?: { readonly properties?: { readonly code?: { readonly enum?: readonly string[] } } } } } }>>;
}

interface Operation {
  readonly template: string;
  readonly method: string;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly responses: Readonly<Record<string, ResponseObject>>;
}

function operations(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method] as Omit<Operation, 'template' | 'method'> | undefined;
      return operation === undefined ? [] : [{ ...operation, template, method }];
    }),
  );
}

/** The `error.code`s an operation documents for an error status; undefined when its body is not the API error shape. */
function documentedCodes(response: ResponseObject): readonly string[] | undefined {
  return response.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum;
}

const VALIDATOR_CLI = join(repoRoot(), 'node_modules', '@seriousme', 'openapi-schema-validator', 'bin', 'validate-api-cli.js');

/** The OpenAPI documents the gateway and the audit log serve, from the running built services. */
describe('the served OpenAPI documents', () => {
  let pipeline: Pipeline;
  let audit: RunningService;
  let auditDir: string;
  let scratch: string;
  const documents: Record<'gateway' | 'audit-log', OpenApiDocument> = {} as Record<'gateway' | 'audit-log', OpenApiDocument>;
  const urls: Record<'gateway' | 'audit-log', string> = { gateway: '', 'audit-log': '' };

  beforeAll(async () => {
    pipeline = await startPipeline();
    auditDir = mkdtempSync(join(tmpdir(), 'llm-stream-openapi-audit-'));
    scratch = mkdtempSync(join(tmpdir(), 'llm-stream-openapi-'));
    audit = await startAuditLog({ natsEnv: pipeline.natsEnv('audit-log'), env: { AUDIT_SQLITE_PATH: join(auditDir, 'audit.sqlite') } });
    urls.gateway = pipeline.gatewayUrl;
    urls['audit-log'] = audit.url;
    documents.gateway = await fetchOpenApi(pipeline.gatewayUrl);
    documents['audit-log'] = await fetchOpenApi(audit.url);
  }, 60_000);

  afterAll(async () => {
    await audit.process.stop('SIGTERM', 5_000);
    await pipeline.stop();
    rmSync(auditDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  describe.each(['gateway', 'audit-log'] as const)('of the %s', (app) => {
    it('is a valid OpenAPI document (@seriousme/openapi-schema-validator)', async () => {
      const file = join(scratch, `${app}.openapi.json`);
      writeFileSync(file, JSON.stringify(documents[app]));
      const result = await runCommand(process.execPath, [VALIDATOR_CLI, file]);
      expect({ code: result.code, output: JSON.parse(result.stdout) as unknown }).toEqual({ code: 0, output: { valid: true } });
      expect(documents[app].openapi).toMatch(/^3\.0\./);
    });

    it('documents as error codes exactly the codes of ApiErrorCode, each error status with its body schema', () => {
      const documented = new Set<string>();
      for (const operation of operations(documents[app])) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const codes = documentedCodes(response);
          // The readiness probe's 503 is its checks (Unreadiness), not the API error shape.
          if (operation.template === '/health/ready' && status === '503') {
            expect(response.content?.['application/json']?.schema).toMatchObject({ properties: { status: { enum: ['unavailable'] }, checks: { type: 'object' } } });
            continue;
          }
          expect({ where: `${operation.method} ${operation.template} ${status}`, codes }).toEqual({ where: expect.any(String) as unknown, codes: expect.any(Array) as unknown });
          for (const code of codes ?? []) documented.add(code);
        }
      }
      expect([...documented].sort()).toEqual(apiErrorCodes(app).sort());
    });

    it('asks for an API key (bearer or x-api-key) on every /v1 route and on no probe', () => {
      expect(documents[app].components).toMatchObject({
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, 'api-key': { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      });
      const security = Object.fromEntries(operations(documents[app]).map((operation) => [`${operation.method} ${operation.template}`, operation.security ?? []]));
      for (const [where, schemes] of Object.entries(security)) {
        expect({ where, schemes }).toEqual({ where, schemes: where.includes(' /v1/') ? [{ bearer: [] }, { 'api-key': [] }] : [] });
      }
    });

    it('serves a Swagger UI page at /docs without a key, with its assets and the same document', async () => {
      const page = await fetch(new URL('/docs', urls[app]), WITHOUT_KEEP_ALIVE);
      expect({ status: page.status, type: page.headers.get('content-type') }).toEqual({ status: 200, type: expect.stringMatching(/^text\/html/) as unknown });
      const html = await page.text();
      expect(html).toContain('swagger-ui');
      for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-init.js']) {
        const response = await fetch(new URL(`/docs/${asset}`, urls[app]), WITHOUT_KEEP_ALIVE);
        expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
        if (asset === 'swagger-ui-init.js') expect(await response.text()).toContain(JSON.stringify(documents[app].info.title));
      }
    });
  });

  it('describes the stream routes as text/event-stream of contract events with the stream id header', () => {
    const paths = documents.gateway.paths as Record<string, Record<string, { responses: Record<string, { content?: object; headers?: object }> }>>;
    for (const [template, method] of [['/v1/streams/{route}', 'post'], ['/v1/streams/{streamId}/events', 'get']] as const) {
      const ok = paths[template]?.[method]?.responses['200'];
      expect(ok?.content).toEqual({ 'text/event-stream': { schema: { type: 'string', description: expect.stringContaining('urn:llm-stream:contract:') as unknown } } });
      expect(ok?.headers).toHaveProperty('x-stream-id');
    }
  });
});
