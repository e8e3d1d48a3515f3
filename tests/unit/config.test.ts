import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/src/config';

describe('loadConfig', () => {
  it('fills defaults for a bare environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ NODE_ENV: 'development', PORT: 3000, DEFAULT_COUNTRY: 'US', LOAD_DEMO_DATA: true });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('reads the port and the database URL', () => {
    const config = loadConfig({ PORT: '4100', DATABASE_URL: 'postgres://u@db.internal:5432/app' });
    expect(config.PORT).toBe(4100);
    expect(config.DATABASE_URL).toBe('postgres://u@db.internal:5432/app');
    expect(config.publicUrl).toBe('http://localhost:4100');
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/app' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['DEFAULT_COUNTRY', { DEFAULT_COUNTRY: 'usa' }],
  ])('names %s when it is wrong', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });
});
