import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type { Config } from '../config';
import { presignS3Get } from './s3-presign';

/** Bytes `start` to `end` (both included, as HTTP ranges count them); `end` absent: to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** An object as read back: its bytes (the whole object, or the range asked for) and what they are. */
export interface StoredObject {
  body: Readable;
  contentType: string;
  /** The whole object's size in bytes, whatever range was read. */
  size: number;
  /** The bytes `body` holds, when a range was asked for (clamped to the object). */
  range?: { start: number; end: number };
}

/**
 * Where media bytes live: one shared place every replica reads and writes (a directory they all mount, or an S3
 * bucket), never one process's memory. Keys are relative paths (`images/ab12….png`): letters, digits, `_`, `-`
 * and `.` in `/`-separated parts, none starting with a dot. A write is all or nothing: a reader sees the old
 * object, the new one, or none, never half of one.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** The object, or null when there is none; a range past the end is clamped (an empty range answers null). */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (which must end with `/`): a variant's folder. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A short-lived address from which a browser fetches the object itself, answered with the type and
   * Content-Disposition given (S3's presigned GET); absent where only the API reads the bytes (a directory).
   */
  presignedGet?(key: string, options: PresignedGetOptions): Promise<string>;
}

/** How long a presigned GET works from when, and the headers its answer carries. */
interface PresignedGetOptions {
  expiresInSeconds: number;
  signingDate: Date;
  contentType: string;
  contentDisposition: string;
}

const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const MAX_KEY_LENGTH = 512;

/** Refuses anything that is not a plain relative key (no `..`, no absolute path, no hidden part). */
export function checkKey(key: string): string {
  if (key.length > MAX_KEY_LENGTH || !KEY.test(key) || key.split('/').some((part) => part.includes('..'))) {
    throw new Error(`not a media key: ${JSON.stringify(key.slice(0, 80))}`);
  }
  return key;
}

function checkPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new Error(`a media prefix ends with /: ${JSON.stringify(prefix)}`);
  checkKey(prefix.slice(0, -1));
  return prefix;
}

/** The object's bytes to read: the whole of it, or the range clamped to its size; null for an empty range. */
function clampRange(size: number, range: ByteRange | undefined): { start: number; end: number } | null | undefined {
  if (!range) return undefined;
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (range.start < 0 || range.start > end) return null;
  return { start: range.start, end };
}

/**
 * Media on a local (or network-mounted) directory. Each object is a file at its key, written under a temporary
 * name and renamed into place, with its content type beside it in `.meta/<key>.json` (keys never start with a dot,
 * so the two trees never meet).
 */
export function localStorage(root: string): MediaStorage {
  const fileOf = (key: string) => path.join(root, checkKey(key));
  const metaOf = (key: string) => path.join(root, '.meta', `${checkKey(key)}.json`);

  async function writeAtomically(target: string, write: (temporary: string) => Promise<void>): Promise<void> {
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.partial`;
    try {
      await write(temporary);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async function contentTypeOf(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(metaOf(key), 'utf8')) as { contentType?: unknown };
      return typeof meta.contentType === 'string' ? meta.contentType : 'application/octet-stream';
    } catch {
      return 'application/octet-stream';
    }
  }

  async function sizeOf(key: string): Promise<number | null> {
    try {
      const found = await stat(fileOf(key));
      return found.isFile() ? found.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  return {
    kind: 'local',
    async put(key, body, contentType) {
      // The type first: a reader that finds the file finds its type.
      await writeAtomically(metaOf(key), (temporary) => writeFile(temporary, JSON.stringify({ contentType })));
      await writeAtomically(fileOf(key), (temporary) =>
        Buffer.isBuffer(body) ? writeFile(temporary, body) : pipeline(body, createWriteStream(temporary)),
      );
    },
    async get(key, range) {
      const size = await sizeOf(key);
      if (size === null) return null;
      const bytes = clampRange(size, range);
      if (bytes === null) return null;
      const body = createReadStream(fileOf(key), bytes ?? {});
      return { body, size, contentType: await contentTypeOf(key), ...(bytes ? { range: bytes } : {}) };
    },
    async exists(key) {
      return (await sizeOf(key)) !== null;
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
      await rm(metaOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      const folder = checkPrefix(prefix).slice(0, -1);
      await rm(path.join(root, folder), { recursive: true, force: true });
      await rm(path.join(root, '.meta', folder), { recursive: true, force: true });
    },
  };
}

export interface S3Options {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** The address browsers reach the bucket at, for presigned GETs, when it is not `endpoint` (an internal one). */
  publicEndpoint?: string;
}

type Sdk = typeof ClientS3 & Pick<typeof LibStorage, 'Upload'>;

/** The AWS SDK loads with the first object read or written, not with the server: it is many modules. */
const loadSdk = async (): Promise<Sdk> => {
  const [client, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return { ...client, Upload: storage.Upload };
};

const isMissing = ({ S3ServiceException }: Sdk, error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, R2, …): a buffer is one PutObject, a stream a multipart upload
 * (lib-storage) so a large file never sits in memory. Checksums are sent only where S3 requires them, which every
 * S3-compatible server accepts.
 */
/** The S3 client's settings for these options (checksums only when required: S3-compatible stores differ). */
export function s3ClientConfig(options: S3Options) {
  return {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  } as const;
}

export function s3Storage(options: S3Options): MediaStorage {
  let ready: Promise<{ sdk: Sdk; client: ClientS3.S3Client }> | undefined;
  const connect = () =>
    (ready ??= loadSdk().then((sdk) => ({ sdk, client: new sdk.S3Client(s3ClientConfig(options)) })));
  const Bucket = options.bucket;

  return {
    kind: 's3',
    async put(key, body, contentType) {
      const { sdk, client } = await connect();
      const upload = new sdk.Upload({
        client,
        params: { Bucket, Key: checkKey(key), Body: body, ContentType: contentType },
      });
      await upload.done();
    },
    async get(key, range) {
      const { sdk, client } = await connect();
      try {
        const answer = await client.send(
          new sdk.GetObjectCommand({
            Bucket,
            Key: checkKey(key),
            Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
          }),
        );
        const body = answer.Body as Readable;
        const total = answer.ContentRange?.match(/\/(\d+)$/)?.[1];
        const size = total ? Number(total) : (answer.ContentLength ?? 0);
        const matched = answer.ContentRange?.match(/bytes (\d+)-(\d+)\//);
        return {
          body,
          size,
          contentType: answer.ContentType ?? 'application/octet-stream',
          ...(range && matched ? { range: { start: Number(matched[1]), end: Number(matched[2]) } } : {}),
        };
      } catch (error) {
        if (isMissing(sdk, error)) return null;
        if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 416) return null;
        throw error;
      }
    },
    async exists(key) {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key: checkKey(key) }));
        return true;
      } catch (error) {
        if (isMissing(sdk, error)) return false;
        throw error;
      }
    },
    async delete(key) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async deletePrefix(prefix) {
      const Prefix = checkPrefix(prefix);
      const { sdk, client } = await connect();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        const keys = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
        if (keys.length)
          await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async presignedGet(key, { expiresInSeconds, signingDate, contentType, contentDisposition }) {
      const { client } = await connect();
      // The client's own credentials (keys, or the SDK's chain with its session token), region and hash.
      const { credentials, region, sha256 } = client.config;
      return presignS3Get(
        { credentials, region, sha256 },
        {
          bucket: Bucket,
          key: checkKey(key),
          endpoint: options.publicEndpoint ?? options.endpoint,
          region: options.region,
          forcePathStyle: options.forcePathStyle,
        },
        {
          expiresInSeconds,
          signingDate,
          responseHeaders: {
            'response-content-type': contentType,
            'response-content-disposition': contentDisposition,
          },
        },
      );
    },
  };
}

/** Where media live: a directory, or an S3 bucket and how to reach it. */
export type StorageConfig = Pick<
  Config,
  | 'MEDIA_DIR'
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PUBLIC_ENDPOINT'
>;

/** S3 when S3_BUCKET is set, else the MEDIA_DIR directory. */
export function createStorage(config: StorageConfig): MediaStorage {
  return config.S3_BUCKET ? s3Storage(s3Options(config)) : localStorage(config.MEDIA_DIR);
}

/** The bucket and how to reach it, from the configuration (S3_BUCKET set). */
export function s3Options(config: StorageConfig): S3Options {
  return {
    bucket: config.S3_BUCKET!,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}

/** Reads a whole (small) object into memory: an image's original before resizing it. */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
