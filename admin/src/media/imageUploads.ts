import { HttpError, type DataProvider, type fetchUtils } from 'react-admin';

export type Http = (url: string, options?: fetchUtils.Options) => Promise<{ json: unknown }>;

/**
 * The pictures a record holds, by resource: the field the form edits (the picture's key) and where the file goes
 * (PUT multipart to upload, DELETE to take it off; api/src/admin/images/routes.ts).
 */
const PICTURES: Record<string, { field: string; path: string }> = {
  products: { field: 'imageKey', path: 'image' },
  users: { field: 'avatarKey', path: 'avatar' },
};

/** What react-admin's ImageInput holds once a file was dropped or chosen. */
interface DroppedFile {
  rawFile: File;
}
export const isDroppedFile = (value: unknown): value is DroppedFile =>
  typeof value === 'object' && value !== null && (value as DroppedFile).rawFile instanceof File;

/**
 * A refusal of the file as a form error on the picture's own field (413 too large, 415 not an image of a taken
 * type, 422 damaged), so the input shows why under it, and the notification says it too.
 */
export function onField(error: unknown, field: string): unknown {
  if (!(error instanceof HttpError)) return error;
  const body = (error.body ?? {}) as { message?: string; errors?: Record<string, string> };
  const message = body.errors?.file ?? body.message ?? error.message;
  // Only the picture's own field: an error under a name no input has would keep the form from being saved again.
  return new HttpError(body.message ?? error.message, error.status, { ...body, errors: { [field]: message } });
}

/**
 * The REST data provider, with the pictures of products and people saved by the same Save: the record's other
 * fields first (PUT as usual, the picture left out), then the new file (multipart) or its removal; the answer is
 * the record as the API holds it after both.
 */
export function withImageUploads<P extends DataProvider>(provider: P, http: Http, api: string): P {
  return {
    ...provider,
    async update(resource, params) {
      const picture = PICTURES[resource];
      if (!picture || !(picture.field in params.data)) return provider.update(resource, params);
      const { [picture.field]: value, ...data } = params.data as Record<string, unknown>;
      const saved = await provider.update(resource, { ...params, data });
      const url = `${api}/${resource}/${encodeURIComponent(String(params.id))}/${picture.path}`;
      const before = (params.previousData as Record<string, unknown> | undefined)?.[picture.field] ?? null;
      try {
        if (isDroppedFile(value)) {
          const form = new FormData();
          form.append('file', value.rawFile);
          return { data: (await http(url, { method: 'PUT', body: form })).json } as typeof saved;
        }
        if (value == null && before) {
          return { data: (await http(url, { method: 'DELETE' })).json } as typeof saved;
        }
      } catch (error) {
        throw onField(error, picture.field);
      }
      return saved;
    },
  };
}
