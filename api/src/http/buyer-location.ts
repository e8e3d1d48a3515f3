import type { Context } from 'koa';
import type { Config } from '../config';

/**
 * The buyer's country: from the trusted proxy's header when one is configured (and the proxy is trusted),
 * else DEFAULT_COUNTRY. A client cannot choose it.
 */
export function buyerCountry(
  ctx: Context,
  config: Pick<Config, 'TRUST_PROXY' | 'COUNTRY_HEADER' | 'DEFAULT_COUNTRY'>,
): string {
  if (config.TRUST_PROXY && config.COUNTRY_HEADER) {
    const value = ctx.get(config.COUNTRY_HEADER).trim().toUpperCase();
    if (/^[A-Z]{2}$/.test(value) && value !== 'XX' && value !== 'T1') return value;
  }
  return config.DEFAULT_COUNTRY;
}

/** City and region (state) from the trusted proxy's headers, when configured; free text, trimmed and bounded. */
export function buyerPlace(
  ctx: Context,
  config: Pick<Config, 'TRUST_PROXY' | 'CITY_HEADER' | 'REGION_HEADER'>,
): { city: string | null; state: string | null } {
  const read = (header: string | undefined) => {
    if (!config.TRUST_PROXY || !header) return null;
    // Proxies percent-encode non-ASCII names (São Paulo).
    const raw = ctx.get(header).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // malformed percent-encoding: keep the header as sent
    }
    return value ? value.slice(0, 100) : null;
  };
  return { city: read(config.CITY_HEADER), state: read(config.REGION_HEADER) };
}
