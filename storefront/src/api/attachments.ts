import type * as Attachments from '@contract/learning/attachments/attachments';
import type { Wire } from '@contract/shared/wire';
import { getJson } from './client';

/** GET /api/store/lessons/:id/attachments: a lesson's file with its download link, which works for a few minutes. */
export type AttachmentLink = Wire<Attachments.AttachmentLink>;

export async function getAttachments(lessonId: string, course: string): Promise<AttachmentLink[]> {
  const query = new URLSearchParams({ course });
  const answer = await getJson<{ data: AttachmentLink[] }>(
    `/api/store/lessons/${encodeURIComponent(lessonId)}/attachments?${query.toString()}`,
  );
  return answer.data;
}
