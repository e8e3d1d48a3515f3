import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger';
import { AppError, type ErrorBody } from '../shared/errors';
import { toAppError } from './errors';

export interface AppState {
  requestId: string;
  log: Logger;
}

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Request id (kept from the caller when sane), a child logger, one access-log line per request. */
export function requestContext(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const state = ctx.state as AppState;
    state.requestId = requestId;
    state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      state.log.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  };
}

/** The one place errors become responses; unexpected ones are logged with their stack and hidden. */
export function errorHandler() {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (error) {
      const state = ctx.state as AppState;
      const appError = toAppError(error);
      let body: ErrorBody;
      if (appError) {
        ctx.status = appError.status;
        if (appError.headers) ctx.set(appError.headers);
        body = {
          code: appError.code,
          message: appError.message,
          ...(appError.fieldErrors && { errors: appError.fieldErrors }),
        };
      } else {
        state.log.error({ err: error }, 'unhandled error');
        ctx.status = 500;
        body = {
          code: 'internal-error',
          message: 'Something went wrong on our side. Quote the request id if you contact support.',
        };
      }
      ctx.body = { ...body, requestId: state.requestId };
    }
  };
}

export function notFound(message = 'No such endpoint.'): AppError {
  return new AppError('route-not-found', message);
}
