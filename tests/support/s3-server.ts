import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { addMultipartListing } from './s3-multipart';

export interface LoopbackS3 {
  /** The settings that point the API's media storage at it (S3_BUCKET, S3_ENDPOINT, …). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver) on a free loopback port, with an empty bucket, its objects in a temporary
 * directory removed on stop: the storage the API's S3 backend talks to in tests, over real HTTP.
 */
export async function startLoopbackS3(bucket = 'media'): Promise<LoopbackS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'lp-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  addMultipartListing(server); // resumable uploads ask how far a multipart upload got
  const { port } = await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
