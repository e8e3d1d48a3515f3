import Router from '@koa/router';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Policies } from '../identity/http/policy';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * RFC 9116's security.txt: where to report a vulnerability, at the address researchers and scanners look first.
 * It must say when it goes stale, so Expires is always a year from the request.
 */
export function securityTxt(config: Pick<Config, 'publicUrl' | 'SECURITY_CONTACT'>, now: Date): string {
  const contact = config.SECURITY_CONTACT ?? `mailto:security@${new URL(config.publicUrl).hostname}`;
  return [
    `Contact: ${contact}`,
    `Expires: ${new Date(now.getTime() + YEAR_MS).toISOString()}`,
    'Preferred-Languages: en',
    `Canonical: ${new URL('/.well-known/security.txt', config.publicUrl).href}`,
    '',
  ].join('\n');
}

export function securityTxtRoutes({ config, clock, allow }: { config: Config; clock: Clock; allow: Policies }) {
  const router = new Router();
  router.get('/.well-known/security.txt', allow.public(), (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = securityTxt(config, clock.now());
  });
  return router;
}
