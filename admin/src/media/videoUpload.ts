import { useCallback, useEffect, useRef, useState } from 'react';
import type { DetailedError, Upload } from 'tus-js-client';
import type { VIDEO_UPLOAD_PATH } from '@contract/video/schemas';
import { CSRF_HEADER, csrfToken } from '../csrf';

/** The tus endpoint; typed by the API's constant, so the two cannot drift (a type import bundles nothing). */
const ENDPOINT: typeof VIDEO_UPLOAD_PATH = '/api/admin/uploads/videos';

/**
 * Waits between attempts after a dropped connection or a server error: a network blip of up to about two minutes
 * resumes by itself (tus asks the server how far it got, then sends the rest).
 */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000];
/** Bytes per PATCH: a proxy's request limit is never reached, and a failed request costs at most this much again. */
const CHUNK_BYTES = 64 * 1024 * 1024;

export type VideoUploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; fileName: string; sent: number; total: number; reconnecting: boolean }
  | { phase: 'failed'; fileName: string; sent: number; total: number; message: string; resumable: boolean };

/** The API's words for a refused request (`{ message }`), else tus's own. */
function messageOf(error: Error | DetailedError): string {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (response) {
    try {
      const body = JSON.parse(response.getBody()) as { message?: string };
      if (body.message) return body.message;
    } catch {
      // Not the API's JSON (a proxy's page): the status says enough.
    }
    return `The upload was refused (HTTP ${response.getStatus()}).`;
  }
  return error.message;
}

/** The server may fail now and answer later (5xx, 409, 423), and a request that got no answer may get one. */
function worthRetrying(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

/**
 * A lesson video's resumable upload (tus 1.0 to /api/admin/uploads/videos, api/src/video/upload.ts) with
 * tus-js-client, loaded when the first upload starts. The console's CSRF header goes with every request (the
 * session cookie goes by itself: same origin). Progress in bytes; a dropped connection is retried for a while, and
 * after that, or after a page reload, choosing the same file for the same lesson resumes where it stopped (tus keeps
 * the upload's address in localStorage). Cancel drops it on the server too. `onDone` gets the video's id.
 */
export function useVideoUpload(lessonId: string, onDone: (videoId: string | null) => void) {
  const [state, setState] = useState<VideoUploadState>({ phase: 'idle' });
  const current = useRef<Upload | null>(null);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });

  // Closing the tab mid-upload asks first (choosing the same file again later resumes it, but only if asked to).
  const sending = state.phase === 'uploading';
  useEffect(() => {
    if (!sending) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [sending]);

  // Leaving the page stops sending (the upload stays resumable on the server).
  useEffect(
    () => () => {
      void current.current?.abort(false);
      current.current = null;
    },
    [],
  );

  const start = useCallback(
    async (file: File) => {
      const fileName = file.name;
      setState({ phase: 'uploading', fileName, sent: 0, total: file.size, reconnecting: false });
      const tus = await import('tus-js-client');
      const upload: Upload = new tus.Upload(file, {
        endpoint: ENDPOINT,
        metadata: { lessonId, filename: fileName, ...(file.type ? { filetype: file.type } : {}) },
        uploadSize: file.size,
        chunkSize: CHUNK_BYTES,
        retryDelays: RETRY_DELAYS_MS,
        removeFingerprintOnSuccess: true,
        // Per lesson: the same file chosen for another lesson is another upload.
        fingerprint: async () =>
          ['lesson-video', lessonId, fileName, file.type, file.size, file.lastModified].join(':'),
        onBeforeRequest: (request) => {
          const token = csrfToken();
          if (token) request.setHeader(CSRF_HEADER, token);
        },
        onShouldRetry: (error) => {
          const retry = worthRetrying(error);
          if (retry) setState((s) => (s.phase === 'uploading' ? { ...s, reconnecting: true } : s));
          return retry;
        },
        onProgress: (sent, total) => {
          if (current.current !== upload) return;
          setState({ phase: 'uploading', fileName, sent, total, reconnecting: false });
        },
        onSuccess: ({ lastResponse }) => {
          if (current.current !== upload) return;
          current.current = null;
          setState({ phase: 'idle' });
          done.current(lastResponse.getHeader('Video-Id') ?? null);
        },
        onError: (error) => {
          if (current.current !== upload) return;
          const status = 'originalResponse' in error ? (error.originalResponse?.getStatus() ?? 0) : 0;
          setState((s) => ({
            phase: 'failed',
            fileName,
            sent: s.phase === 'idle' ? 0 : s.sent,
            total: file.size,
            message: messageOf(error),
            // A refusal (too large, no such lesson, signed out) will not change by sending again.
            resumable: status === 0 || status >= 500,
          }));
        },
      });
      current.current = upload;
      const previous = await upload.findPreviousUploads();
      if (current.current !== upload) return; // cancelled meanwhile
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    },
    [lessonId],
  );

  /** Tries again from where the server got to (after the retries gave up). */
  const resume = useCallback(() => {
    const upload = current.current;
    if (!upload) return;
    setState((s) =>
      s.phase === 'failed'
        ? { phase: 'uploading', fileName: s.fileName, sent: s.sent, total: s.total, reconnecting: false }
        : s,
    );
    upload.start();
  }, []);

  /** Stops sending and drops what the server has of it. */
  const cancel = useCallback(() => {
    const upload = current.current;
    current.current = null;
    setState({ phase: 'idle' });
    if (upload) void upload.abort(true).catch(() => undefined);
  }, []);

  return { state, start, resume, cancel };
}
