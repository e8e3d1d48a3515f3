import type { Context, Next } from 'koa';

/** What Koa itself writes as JSON: an object that is not bytes, a stream, a Blob or a fetch body. */
function isJsonBody(body: unknown): body is object {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function' &&
    !(body instanceof Blob) &&
    !(body instanceof ReadableStream) &&
    !(body instanceof Response)
  );
}

/**
 * Writes an object body out as JSON text once, as it leaves the handlers: compression asks its length first and the
 * response then sends it, and Koa stringifies an object body for each. Its Content-Type stays JSON.
 */
export function jsonAsText() {
  return async (ctx: Context, next: Next) => {
    await next();
    if (!ctx.headerSent && isJsonBody(ctx.body)) ctx.body = JSON.stringify(ctx.body);
  };
}
