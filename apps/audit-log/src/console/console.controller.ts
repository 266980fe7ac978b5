import { Controller, Get, HttpStatus, Inject, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error.js';
import type { ConsoleFile } from './console-files.js';
import { CONSOLE_HEADERS } from './console-headers.js';

export const CONSOLE_FILES = Symbol('CONSOLE_FILES');

/**
 * The diagnostics console's static files at `/console/` (not part of the API document). The files need no key:
 * the console signs in with a gateway key and reads the audit API with it, which decides what it may see.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  constructor(@Inject(CONSOLE_FILES) private readonly files: ReadonlyMap<string, ConsoleFile>) {}

  // Express routes `/console` and `/console/` alike: the path itself tells them apart.
  @Get()
  root(@Req() request: IncomingMessage, @Res() response: ServerResponse): void {
    if (new URL(request.url ?? '/', 'http://console').pathname === '/console/') this.file(request, response);
    else response.writeHead(HttpStatus.MOVED_PERMANENTLY, { ...CONSOLE_HEADERS, location: '/console/' }).end();
  }

  @Get('*path')
  file(@Req() request: IncomingMessage, @Res() response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://console').pathname;
    const file = this.files.get(path);
    if (file === undefined) {
      const why = this.files.size === 0 ? 'the console is not built (npm run -s build)' : `no console file ${path}`;
      throw new ApiError(HttpStatus.NOT_FOUND, 'not_found', why);
    }
    response
      .writeHead(HttpStatus.OK, {
        ...CONSOLE_HEADERS,
        'content-type': file.contentType,
        'content-length': String(file.body.length),
        'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      })
      .end(file.body);
  }
}
