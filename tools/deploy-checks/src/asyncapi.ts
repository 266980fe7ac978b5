import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { schemas } from '@asyncapi/specs';
import Ajv from 'ajv';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';

export const ASYNCAPI_FILE = 'docs/asyncapi.yaml';

export type JsonObject = { readonly [key: string]: unknown };

export interface AsyncApiDocument extends JsonObject {
  readonly asyncapi: string;
  readonly info: { readonly version: string };
  readonly channels: Readonly<Record<string, { readonly address: string | null; readonly parameters?: JsonObject; readonly messages?: JsonObject; readonly 'x-jetstream-stream'?: string }>>;
  readonly components: { readonly schemas: Readonly<Record<string, JsonObject>>; readonly messages: Readonly<Record<string, { readonly headers?: JsonObject; readonly payload?: JsonObject }>> };
}

export function loadAsyncApi(root: string): AsyncApiDocument {
  return parse(readFileSync(join(root, ASYNCAPI_FILE), 'utf8')) as AsyncApiDocument;
}

/** Problems of the document against the official AsyncAPI 3.0.0 JSON Schema (@asyncapi/specs). */
export function asyncApiSchemaErrors(document: unknown): string[] {
  // The bundled schema carries its own copy of the draft-07 meta-schema: Ajv must not add another.
  const ajv = new Ajv.default({ strict: false, allErrors: true, validateFormats: false, meta: false, validateSchema: false });
  const validate = ajv.compile(schemas['3.0.0'] as object);
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
}

const COMPONENTS_ID = 'urn:llm-stream:asyncapi-components';

/**
 * Validators for the document's schemas. References are rewritten for Ajv: `#/components/schemas/X` to the
 * components (registered under one id) and a file reference to the `$id` of the schema file it names, which
 * `files` must provide (path relative to the repository root → its JSON).
 */
export class AsyncApiSchemas {
  private readonly ajv = new Ajv2020.default({ strict: false, allErrors: true, discriminator: true });
  /** Repository-relative files the document references. */
  readonly referencedFiles = new Set<string>();

  constructor(
    private readonly root: string,
    document: AsyncApiDocument,
    files: Readonly<Record<string, JsonObject>>,
  ) {
    for (const schema of Object.values(files)) this.ajv.addSchema(schema);
    this.files = files;
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: this.rewrite(document.components.schemas) });
  }

  private readonly files: Readonly<Record<string, JsonObject>>;

  private rewrite(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.rewrite(item));
    if (typeof node !== 'object' || node === null) return node;
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') result[key] = this.reference(value);
      else result[key] = this.rewrite(value);
    }
    return result;
  }

  private reference(value: string): string {
    if (value.startsWith('#/components/schemas/')) return `${COMPONENTS_ID}#/$defs/${value.slice('#/components/schemas/'.length)}`;
    if (value.startsWith('#')) throw new Error(`unsupported reference ${value}`);
    const file = relative(this.root, resolve(dirname(join(this.root, ASYNCAPI_FILE)), value));
    this.referencedFiles.add(file);
    const id = this.files[file]?.['$id'];
    if (typeof id !== 'string') throw new Error(`${ASYNCAPI_FILE} references ${file}, which the checks were not given`);
    return id;
  }

  /** A validator for any schema of the document (an inline payload, a header schema, a reference). */
  compile(schema: JsonObject): ValidateFunction {
    return this.ajv.compile(this.rewrite(schema) as object);
  }
}

export function errorsOf(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`).join('; ');
}

/** `{tenant}`-style parameters of a channel address. */
export function addressParameters(address: string): string[] {
  return [...address.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}
