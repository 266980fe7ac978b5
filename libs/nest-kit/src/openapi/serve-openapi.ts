import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_HEADER_SCHEME, BEARER_SCHEME } from './api-key-auth.decorator.js';

/** Where every service serves its API description. */
const OPENAPI_JSON_PATH = '/openapi.json';
const OPENAPI_DOCS_PATH = '/docs';

export interface OpenApiInfo {
  readonly title: string;
  readonly description: string;
  readonly version: string;
}

/**
 * The service's OpenAPI document, generated from its controllers' routes and `@Api*` decorators (so it cannot
 * drift from them), with the two ways of presenting a gateway API key.
 */
function buildOpenApiDocument(app: INestApplication, info: OpenApiInfo): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(info.title)
    .setDescription(info.description)
    .setVersion(info.version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A gateway API key: `Authorization: Bearer <key>`.' }, BEARER_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The same key in `x-api-key`.' }, API_KEY_HEADER_SCHEME)
    .build();
  return SwaggerModule.createDocument(app, config);
}

/**
 * Serves `GET /openapi.json` and the Swagger UI page `GET /docs` (its assets from swagger-ui-dist, under
 * /docs/). Both are registered on the HTTP server itself, not as controllers: no API key guard applies (the
 * description is public, its operations are not) and they are not operations of the document. Call it before
 * `app.init()`: routes added after Nest's not-found handler would never be reached.
 */
export function serveOpenApi(app: INestApplication, info: OpenApiInfo): OpenAPIObject {
  const document = buildOpenApiDocument(app, info);
  SwaggerModule.setup(OPENAPI_DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: info.title,
  });
  return document;
}
