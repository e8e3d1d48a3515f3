import { ApiError, deleteJson, type ApiErrorBody } from './client';

/** The file GET /api/store/me/export answers: its name (from Content-Disposition) and its bytes. */
export interface DataFile {
  filename: string;
  blob: Blob;
}

/** Everything held about the signed-in person, as the JSON file the API names. */
export async function downloadPersonalData(): Promise<DataFile> {
  let response: Response;
  try {
    response = await fetch('/api/store/me/export', {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch {
    throw new ApiError(0, {
      code: 'network-error',
      message: 'Could not reach the server. Check your connection and try again.',
    });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as ApiErrorBody | null;
    throw new ApiError(
      response.status,
      body ?? { code: 'http-error', message: `The server answered ${response.status}.` },
    );
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
  return { filename: named?.[1] ?? 'my-data.json', blob: await response.blob() };
}

/** Hands a file to the browser as a download (a link clicked for the person, then let go). */
export function saveFile({ filename, blob }: DataFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Deletes the signed-in person's account; `confirm` is their email typed again. The API signs them out. */
export function deleteAccount(confirm: string): Promise<void> {
  return deleteJson('/api/store/me', { confirm });
}
