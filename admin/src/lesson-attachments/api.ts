import { withCsrf } from '../csrf';

/** A file attached to a lesson, as the console's API lists it. */
export interface Attachment {
  id: string;
  lessonId: string;
  fileName: string;
  contentType: string;
  sizeBytes: number | string;
  position: number;
}

/** A refusal from the API: its message, said where the panel shows errors. */
export class AttachmentProblem extends Error {}

const base = (lessonId: string) => `/api/admin/lessons/${encodeURIComponent(lessonId)}/attachments`;

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => null)) as { data?: T; message?: string } | null;
  if (!response.ok) throw new AttachmentProblem(body?.message ?? `The server answered ${response.status}.`);
  return body!.data as T;
}

export const listAttachments = async (lessonId: string) =>
  answer<Attachment[]>(await fetch(base(lessonId), { headers: withCsrf(undefined), credentials: 'same-origin' }));

export const reorderAttachments = async (lessonId: string, ids: string[]) =>
  answer<Attachment[]>(
    await fetch(`${base(lessonId)}/order`, {
      method: 'PUT',
      headers: withCsrf({ 'Content-Type': 'application/json', Accept: 'application/json' }),
      credentials: 'same-origin',
      body: JSON.stringify({ ids }),
    }),
  );

export async function deleteAttachment(id: string): Promise<void> {
  const response = await fetch(`/api/admin/lesson-attachments/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    headers: withCsrf(undefined),
    credentials: 'same-origin',
  });
  if (!response.ok) await answer(response);
}

type UploadAnswer = { data?: Attachment; message?: string };

/**
 * Sends one file (multipart, field `file`), telling `onProgress` the bytes sent as they go: XMLHttpRequest, since
 * fetch reports no upload progress. `signal` cancels it.
 */
export function uploadAttachment(
  lessonId: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
  signal: AbortSignal,
): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', base(lessonId));
    withCsrf(undefined).forEach((value, name) => request.setRequestHeader(name, value));
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      let body: UploadAnswer | null;
      try {
        body = JSON.parse(request.responseText) as UploadAnswer;
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300 && body?.data) resolve(body.data);
      else reject(new AttachmentProblem(body?.message ?? `The server answered ${request.status}.`));
    };
    request.onerror = () => reject(new AttachmentProblem('The upload stopped: check the connection and try again.'));
    request.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal.addEventListener('abort', () => request.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}
