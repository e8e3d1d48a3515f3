import type { Context } from 'koa';
import type { Config } from '../config';

/**
 * The buyer's country: from the trusted proxy's header when one is configured (and the proxy is trusted),
 * else DEFAULT_COUNTRY. A client cannot choose it.
 */
export function buyerCountry(ctx: Context, config: Pick<Config, 'TRUST_PROXY' | 'COUNTRY_HEADER' | 'DEFAULT_COUNTRY'>): string {
  if (config.TRUST_PROXY && config.COUNTRY_HEADER) {
    const value = ctx.get(config.COUNTRY_HEADER).trim().toUpperCase();
    if (/^[A-Z]{2}$/.test(value) && value !== 'XX' && value !== 'T1') return value;
  }
  return config.DEFAULT_COUNTRY;
}
