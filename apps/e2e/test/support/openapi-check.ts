import { Ajv, type ValidateFunction } from 'ajv';
import { validateEvent } from '@llm-stream/contract';

/** The parts of an OpenAPI 3.0 document these checks read. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  readonly components?: Readonly<Record<string, unknown>>;
}

export interface OpenApiOperation {
  readonly responses: Readonly<Record<string, { readonly content?: Readonly<Record<string, { readonly schema?: object }>> }>>;
}

/** One HTTP answer a suite received: what the document must describe. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The parsed JSON body (or its text when it is not JSON); undefined for an event stream. */
  readonly body?: unknown;
  /** The `data:` of every SSE record of an event stream. */
  readonly sseData?: readonly string[];
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** `METHOD /path/{template} STATUS` of one documented (or one seen) answer, per service (the document's title). */
export function answerKey(title: string, method: string, template: string, status: number | string): string {
  return `${title} ${method.toUpperCase()} ${template} ${String(status)}`;
}

const seen = new Set<string>();

/** Every answer the checked exchanges of this test file got (each one the document describes), as {@link answerKey}s. */
export function seenAnswers(): ReadonlySet<string> {
  return seen;
}

function templatePattern(template: string): RegExp {
  const escaped = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]+')}$`);
}

/** A served document with its response validators (Ajv, which reads OpenAPI 3.0's `nullable`). */
export class CheckedDocument {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: readonly { readonly template: string; readonly pattern: RegExp }[];

  constructor(readonly document: OpenApiDocument) {
    // Literal segments before templated ones: `/v1/streams/{id}` must not shadow a fixed path of the same length.
    this.templates = Object.keys(document.paths)
      .map((template) => ({ template, pattern: templatePattern(template) }))
      .sort((a, b) => b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length);
  }

  get title(): string {
    return this.document.info.title;
  }

  /** The path template the document matches a request path with, if any. */
  templateOf(method: string, path: string): string | undefined {
    return this.templates.find(({ template, pattern }) => pattern.test(path) && this.document.paths[template]?.[method.toLowerCase()] !== undefined)?.template;
  }

  /** Every documented (operation, status), as {@link answerKey}s. */
  documentedAnswers(): Set<string> {
    const keys = new Set<string>();
    for (const [template, item] of Object.entries(this.document.paths)) {
      for (const method of HTTP_METHODS) {
        for (const status of Object.keys(item[method]?.responses ?? {})) keys.add(answerKey(this.title, method, template, status));
      }
    }
    return keys;
  }

  /**
   * What is wrong with an exchange against the document (empty when nothing is): an undocumented path, method
   * or status, a body its schema refuses, an SSE data line the contract's JSON Schema refuses.
   */
  problems(exchange: Exchange): string[] {
    const path = new URL(exchange.url).pathname;
    const where = `${exchange.method} ${path} ${String(exchange.status)} (${this.title})`;
    const template = this.templateOf(exchange.method, path);
    if (template === undefined) return [`${where}: no documented operation`];
    const response = this.document.paths[template]?.[exchange.method.toLowerCase()]?.responses[String(exchange.status)];
    if (response === undefined) return [`${where}: status not documented for ${template}`];
    const mediaType = (exchange.contentType ?? '').split(';')[0]?.trim() ?? '';
    const content = response.content?.[mediaType];
    if (content === undefined) return [`${where}: content type ${mediaType} not documented`];
    if (mediaType === 'text/event-stream') return (exchange.sseData ?? []).flatMap((data) => eventProblems(where, data));
    const validate = this.validator(`${template} ${exchange.method} ${String(exchange.status)} ${mediaType}`, content.schema ?? {});
    if (validate(exchange.body)) return [];
    return [`${where}: body ${JSON.stringify(exchange.body)} is refused by its schema: ${this.ajv.errorsText(validate.errors)}`];
  }

  private validator(key: string, schema: object): ValidateFunction {
    let validate = this.validators.get(key);
    if (validate === undefined) {
      // The document's components beside the schema: its `#/components/...` references resolve in it.
      validate = this.ajv.compile({ ...schema, components: this.document.components ?? {} });
      this.validators.set(key, validate);
    }
    return validate;
  }
}

function eventProblems(where: string, data: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return [`${where}: SSE data is not JSON: ${data}`];
  }
  const checked = validateEvent(value);
  return checked.ok ? [] : [`${where}: SSE data refused by the contract's JSON Schema (${checked.error.message}): ${data}`];
}

const documents = new Map<string, Promise<CheckedDocument | undefined>>();

/**
 * For requests after which a suite may block its event loop for a while (the TypeScript checker): a socket kept
 * alive could be closed by the service meanwhile and then reused ("other side closed").
 */
export const WITHOUT_KEEP_ALIVE = { headers: { connection: 'close' } } as const;

/** GET /openapi.json of a service (by its origin). */
export async function fetchOpenApi(origin: string): Promise<OpenApiDocument> {
  const response = await fetch(new URL('/openapi.json', origin), WITHOUT_KEEP_ALIVE);
  if (response.status !== 200) throw new Error(`${origin}/openapi.json answered ${String(response.status)}`);
  return (await response.json()) as OpenApiDocument;
}

/**
 * Checks an exchange against the document its service serves (fetched once per origin) and records the
 * answer for the coverage check; throws on the first mismatch. A service that no longer answers (a suite
 * killed it after the exchange) has no document to fetch: nothing is checked, the document is checked itself
 * by openapi-document.spec.ts.
 */
export async function checkExchange(exchange: Exchange): Promise<void> {
  const origin = new URL(exchange.url).origin;
  let document = documents.get(origin);
  if (document === undefined) {
    document = fetchOpenApi(origin).then(
      (served) => new CheckedDocument(served),
      () => undefined,
    );
    documents.set(origin, document);
  }
  const checked = await document;
  if (checked === undefined) {
    // Fetched again next time: the origin may be a restarted service on the same port.
    documents.delete(origin);
    return;
  }
  const problems = checked.problems(exchange);
  if (problems.length > 0) throw new Error(`the answer does not match ${origin}/openapi.json:\n${problems.join('\n')}`);
  const template = checked.templateOf(exchange.method, new URL(exchange.url).pathname);
  if (template !== undefined) seen.add(answerKey(checked.title, exchange.method, template, exchange.status));
}

/** A request read to the end and checked like the gateway helper's answers: for the other routes (probes, audit log). */
export async function checkedFetch(url: string | URL, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  const contentType = response.headers.get('content-type');
  const text = await response.text();
  const body: unknown = contentType?.startsWith('application/json') === true ? JSON.parse(text) : text;
  await checkExchange({ method: init.method ?? 'GET', url: response.url, status: response.status, contentType, body });
  return { status: response.status, body };
}
