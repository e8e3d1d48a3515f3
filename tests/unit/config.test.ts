import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/src/config';

describe('loadConfig', () => {
  it('fills defaults for a bare environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ NODE_ENV: 'development', PORT: 3000, DEFAULT_COUNTRY: 'US', LOAD_DEMO_DATA: true });
    expect(config.VIDEO_X264_PRESET).toBe('veryfast');
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
    ['VIDEO_X264_PRESET', { VIDEO_X264_PRESET: 'quick' }],
  ])('names %s when it is wrong', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  describe('media storage', () => {
    const s3 = {
      S3_BUCKET: 'course-media',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    };

    it('keeps media on local disk under .data by default', () => {
      const config = loadConfig({});
      expect(config.MEDIA_DIR).toMatch(/[/\\]\.data[/\\]media$/);
      expect(config.S3_BUCKET).toBeUndefined();
      expect(loadConfig({ MEDIA_DIR: '/srv/media' }).MEDIA_DIR).toBe('/srv/media');
    });

    it('reads an S3-compatible storage', () => {
      expect(loadConfig(s3)).toMatchObject({ ...s3, S3_FORCE_PATH_STYLE: true, S3_REGION: 'us-east-1' });
      // AWS itself: no endpoint, and the SDK's own credentials (AWS_* variables, an instance role).
      const aws = loadConfig({ S3_BUCKET: 'course-media', S3_REGION: 'eu-west-1' });
      expect(aws).toMatchObject({ S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: false });
      expect(aws.S3_ENDPOINT).toBeUndefined();
      expect(aws.S3_ACCESS_KEY_ID).toBeUndefined();
    });

    it.each([
      ['S3_BUCKET', { S3_BUCKET: 'Not_A_Bucket' }],
      ['S3_ENDPOINT', { ...s3, S3_ENDPOINT: 'ftp://storage.internal' }],
      ['S3_FORCE_PATH_STYLE', { ...s3, S3_FORCE_PATH_STYLE: 'yes' }],
      ['S3_SECRET_ACCESS_KEY', { ...s3, S3_SECRET_ACCESS_KEY: '' }],
      ['S3_BUCKET', { S3_ENDPOINT: 'http://127.0.0.1:9000' }],
      ['S3_BUCKET', { S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' }],
    ])('names %s when it is wrong', (name, env) => {
      expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
    });
  });

  describe('payments in production', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };

    it('refuses to start without Stripe keys, naming STRIPE_SECRET_KEY', () => {
      expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
        /^Invalid configuration:\n {2}STRIPE_SECRET_KEY: .*ALLOW_TEST_PAYMENTS=true/,
      );
      expect(() => loadConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'false' })).toThrow(/STRIPE_SECRET_KEY/);
    });

    it('starts with Stripe keys, or with test payments allowed on purpose', () => {
      expect(loadConfig({ NODE_ENV: 'production', ...stripe })).toMatchObject({
        STRIPE_SECRET_KEY: 'sk_live_abc123',
        ALLOW_TEST_PAYMENTS: false,
      });
      expect(loadConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' }).ALLOW_TEST_PAYMENTS).toBe(true);
    });

    it('keeps the test provider as the zero-configuration default outside production', () => {
      expect(loadConfig({}).ALLOW_TEST_PAYMENTS).toBe(false);
      expect(() => loadConfig({ NODE_ENV: 'development' })).not.toThrow();
      expect(() => loadConfig({ NODE_ENV: 'test' })).not.toThrow();
    });

    it('names ALLOW_TEST_PAYMENTS when it is not true or false', () => {
      expect(() => loadConfig({ ALLOW_TEST_PAYMENTS: 'yes' })).toThrow(
        /^Invalid configuration:\n {2}ALLOW_TEST_PAYMENTS: /,
      );
    });
  });
});
