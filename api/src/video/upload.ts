import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DataStore, Server } from '@tus/server';
import type { Config } from '../config';
import { AppError } from '../shared/errors';
import type { Logger } from '../logger';
import { s3ClientConfig, s3Options, type MediaStorage, type StorageConfig } from '../media/storage';
import { VIDEO_UPLOAD_PATH, type UploadMetadata, type VideoRecord } from './schemas';
import type { VideoAdmin, VideoWriteContext } from './video-admin';

/** An upload's id in its address: 32 hex digits. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Uploads never finished are dropped after a week (local disk; on S3, a lifecycle rule on `uploads/` does it). */
const UNFINISHED_UPLOAD_MS = 7 * 24 * 60 * 60 * 1000;
const CLEAN_UP_EVERY_MS = 60 * 60 * 1000;
const S3_PART_BYTES = 8 * 1024 * 1024;

type UploadConfig = StorageConfig & Pick<Config, 'VIDEO_MAX_BYTES'>;

const sizeInWords = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

type Staging = Awaited<ReturnType<typeof staging>>;

/** What a request that finishes an upload carries through tus: who sends it, and what became of it. */
interface Finishing {
  context: VideoWriteContext;
  video?: VideoRecord;
  error?: unknown;
}

/**
 * Where unfinished uploads live while their bytes arrive: beside the media, where every replica reaches them (the
 * same MEDIA_DIR, or the same bucket), so an upload resumes on whichever replica the next request reaches. Local:
 * @tus/file-store under MEDIA_DIR/uploads. S3: @tus/s3-store (a multipart upload) under `uploads/` in the bucket.
 */
async function staging(config: UploadConfig, storage: MediaStorage) {
  // The stores and the tus server load with the first upload: a starting server does not need their modules.
  if (storage.kind === 's3') {
    const { S3Store } = await import('@tus/s3-store');
    const datastore = new S3Store({
      partSize: S3_PART_BYTES,
      s3ClientConfig: { bucket: config.S3_BUCKET!, ...s3ClientConfig(s3Options(config)) },
    });
    return {
      datastore: datastore as DataStore,
      storeId: (id: string) => `uploads/${id}`,
      read: (storeId: string): Promise<Readable> => datastore.read(storeId),
      // The finished multipart upload is an object now (aborting it, as the store's remove does, is refused).
      discard: async (storeId: string) => {
        for (const key of [storeId, `${storeId}.info`, `${storeId}.part`]) await storage.delete(key);
      },
      expires: false,
    };
  }
  // Made here first: the store makes it too, but a failure there (a read-only volume) would end the process.
  const directory = path.join(config.MEDIA_DIR, 'uploads');
  await mkdir(directory, { recursive: true });
  const { FileStore } = await import('@tus/file-store');
  const datastore = new FileStore({
    directory,
    expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_MS,
  });
  return {
    datastore: datastore as DataStore,
    storeId: (id: string) => id,
    read: async (storeId: string): Promise<Readable> => datastore.read(storeId),
    discard: (storeId: string) => datastore.remove(storeId),
    expires: true,
  };
}

/**
 * The console's resumable video uploads: the tus 1.0 protocol (@tus/server) at /api/admin/uploads/videos. The HTTP
 * layer checks who calls (the console's policy and CSRF, like every console write) and hands over a web Request;
 * an upload's creation is checked first (its lesson exists, its size is known and allowed). When the last byte
 * arrives the file becomes the lesson's video source (videoAdmin.attachSource: the row and its processing job in
 * one transaction) before the last PATCH is answered, and the staged upload is removed.
 */
export function videoUploads({
  config,
  storage,
  videos,
  logger,
}: {
  config: UploadConfig;
  storage: MediaStorage;
  videos: VideoAdmin;
  logger: Logger;
}) {
  const finishing = new AsyncLocalStorage<Finishing>();
  let lastCleanUp = 0;
  // Built on the first upload: a process that never takes one (a test, the command line) makes no folder or client.
  let built: Promise<{ staged: Staging; server: Server }> | undefined;
  const tus = () => {
    built ??= build().catch((error: unknown) => {
      built = undefined; // the next upload tries again
      throw error;
    });
    return built;
  };

  async function build() {
    const staged = await staging(config, storage);
    const { Server } = await import('@tus/server');
    const server = new Server({
      path: VIDEO_UPLOAD_PATH,
      datastore: staged.datastore,
      maxSize: config.VIDEO_MAX_BYTES,
      relativeLocation: true,
      // Same origin only: the console is served by this app, and no other site may read these answers.
      allowedOrigins: [],
      disableTerminationForFinishedUploads: true,
      namingFunction: () => staged.storeId(randomBytes(16).toString('hex')),
      generateUrl: (_req, { path: base, id }) => `${base}/${id.slice(id.lastIndexOf('/') + 1)}`,
      getFileIdFromRequest: (_req, last) => (last && UPLOAD_ID.test(last) ? staged.storeId(last) : undefined),
      onUploadFinish: async (_req, upload) => {
        const state = finishing.getStore();
        try {
          if (!state) throw new Error('an upload finished outside a request');
          const metadata = upload.metadata ?? {};
          state.video = await videos.attachSource(
            {
              lessonId: metadata.lessonId ?? '',
              filename: metadata.filename ?? 'video',
              contentType: metadata.filetype ?? undefined,
              size: upload.size ?? upload.offset,
              open: () => staged.read(upload.id),
            },
            state.context,
          );
        } catch (error) {
          if (state) state.error = error;
          throw { status_code: 500, body: 'The upload arrived but could not become the lesson video.\n' };
        }
        await staged.discard(upload.id).catch((error: unknown) => {
          logger.warn({ err: error, upload: upload.id }, 'could not remove a finished video upload');
        });
        return { headers: { 'Video-Id': state.video.id } };
      },
    });
    return { staged, server };
  }

  /** Drops uploads left unfinished past their expiry, at most once an hour per process (local disk only). */
  async function cleanUpNowAndThen(): Promise<void> {
    const { staged, server } = await tus();
    if (!staged.expires || Date.now() - lastCleanUp < CLEAN_UP_EVERY_MS) return;
    lastCleanUp = Date.now();
    server.cleanUpExpiredUploads().then(
      (count) => count && logger.info({ count }, 'removed unfinished video uploads'),
      (error: unknown) => logger.warn({ err: error }, 'could not remove unfinished video uploads'),
    );
  }

  return {
    /**
     * Checks an upload before it is created: its lesson exists and is the writer's to change, and its size is known, not empty, and at most
     * VIDEO_MAX_BYTES (413 otherwise, saying the limit).
     */
    async checkCreation(metadata: UploadMetadata, size: number | null, context: VideoWriteContext): Promise<void> {
      if (size === null) {
        throw new AppError('validation-failed', 'Upload-Length is required: the size must be known at the start.', {
          file: 'The size must be known',
        });
      }
      if (size === 0) throw new AppError('validation-failed', 'The file is empty.', { file: 'The file is empty' });
      if (size > config.VIDEO_MAX_BYTES) {
        throw new AppError(
          'payload-too-large',
          `The video is ${sizeInWords(size)}; the largest allowed is ${sizeInWords(config.VIDEO_MAX_BYTES)} (VIDEO_MAX_BYTES).`,
          { file: `At most ${sizeInWords(config.VIDEO_MAX_BYTES)}` },
        );
      }
      await videos.requireEditableLesson(metadata.lessonId, context);
      await cleanUpNowAndThen();
    },

    /**
     * Checks a request on an upload under way (sending bytes, asking how far it got, dropping it): only for whoever
     * may change its lesson. An upload that does not exist is left to tus (404).
     */
    async checkUpload(uploadId: string, context: VideoWriteContext): Promise<void> {
      const { staged } = await tus();
      const lessonId = await staged.datastore.getUpload(staged.storeId(uploadId)).then(
        (upload) => upload.metadata?.lessonId,
        () => undefined,
      );
      if (lessonId) await videos.checkUploadLesson(lessonId, context);
    },

    /**
     * Answers one tus request. A failure to attach a finished upload is thrown as it was (a 404 for a lesson deleted
     * meanwhile), so the client hears it in the API's own error model.
     */
    async handle(request: Request, context: VideoWriteContext): Promise<Response> {
      const state: Finishing = { context };
      const { server } = await tus();
      const response = await finishing.run(state, () => server.handleWeb(request));
      if (state.error) throw state.error;
      return response;
    },
  };
}

export type VideoUploads = ReturnType<typeof videoUploads>;
