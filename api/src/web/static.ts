import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';

interface SpaOptions {
  /** URL prefix the app is served under: '' for the storefront, '/admin' for the console. */
  prefix: string;
  root: string;
  name: string;
  /** Answers an address that is not a file, instead of index.html (the storefront's server-rendered pages). */
  page?: (ctx: Context) => Promise<void>;
}

/**
 * Serves a built single-page app: files when they exist, index.html for every other GET below the prefix
 * (client-side routes). Hashed assets are cached for good; index.html never is.
 */
export function serveSpa({ prefix, root, name, page }: SpaOptions) {
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (prefix && ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
    if (prefix && ctx.path === prefix) return ctx.redirect(`${prefix}/`);

    const relative = ctx.path.slice(prefix.length) || '/';
    if (!existsSync(path.join(root, 'index.html'))) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = `The ${name} is not built yet. Run "npm run build" (npm start does it for you) and reload.`;
      return;
    }
    if (relative !== '/' && !relative.endsWith('/')) {
      try {
        ctx.vary('Accept-Encoding'); // koa-send answers the build's .br or .gz to browsers that accept them
        const served = await send(ctx, relative, {
          root,
          immutable: relative.startsWith('/assets/'),
          maxage: relative.startsWith('/assets/') ? 365 * 24 * 3600 * 1000 : 0,
        });
        if (served) return;
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status !== 404 && status !== 400 && status !== 403) throw error;
        // A path that names an asset (has an extension) and is missing is a real 404, not a client route.
        if (path.extname(relative)) {
          ctx.status = 404;
          ctx.type = 'text/plain';
          ctx.body = 'Not found.';
          return;
        }
      }
    }
    if (page) return page(ctx);
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root });
  };
}
