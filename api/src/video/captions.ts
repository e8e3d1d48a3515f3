import { recordAudit } from '../audit/record';
import { AppError } from '../shared/errors';
import { VIDEO_RESOURCE, type VideoAdminDeps, type VideoWriteContext } from './admin-deps';
import type { VideoCaption } from './models';
import type { CaptionBody, VideoRecord } from './schemas';
import { checkVideoAuthor } from './video-authorship';
import { getVideo } from './video-reads';
import { cueCount, parseWebVtt, WebVttError } from './webvtt';

type CaptionDeps = Pick<VideoAdminDeps, 'db' | 'changed'>;

/** Puts a caption file for one language (replacing one there), once it reads as WebVTT; audited. */
export async function putCaption(
  deps: CaptionDeps,
  id: string,
  language: string,
  body: CaptionBody,
  context: VideoWriteContext,
): Promise<VideoRecord> {
  const { db } = deps;
  await checkVideoAuthor(db, id, context);
  let cues: number;
  try {
    cues = parseWebVtt(body.vtt).cues.length;
  } catch (error) {
    if (!(error instanceof WebVttError)) throw error;
    throw new AppError('caption-invalid', `The captions are not valid WebVTT: ${error.message}.`, {
      vtt: error.message,
    });
  }
  await db.transaction(async (trx) => {
    const row = await trx('lessonVideos').where({ id }).forShare().first('id');
    if (!row) throw new AppError('not-found', `No video with id ${id}.`);
    const before: VideoCaption | undefined = await trx('videoCaptions').where({ videoId: id, language }).first();
    await trx('videoCaptions')
      .insert({ videoId: id, language, label: body.label, vtt: body.vtt })
      .onConflict(['videoId', 'language'])
      .merge(['label', 'vtt']);
    await recordAudit(trx, {
      ...context,
      action: 'set-captions',
      resource: VIDEO_RESOURCE,
      recordId: id,
      before: before ? { language, label: before.label, cueCount: cueCount(before.vtt) } : null,
      after: { language, label: body.label, cueCount: cues, bytes: Buffer.byteLength(body.vtt) },
    });
  });
  deps.changed();
  return getVideo(deps, id);
}

/** Removes the captions of one language (a 404 when there are none), audited. */
export async function deleteCaption(
  deps: CaptionDeps,
  id: string,
  language: string,
  context: VideoWriteContext,
): Promise<VideoRecord> {
  const { db } = deps;
  await checkVideoAuthor(db, id, context);
  await db.transaction(async (trx) => {
    const caption: VideoCaption | undefined = await trx('videoCaptions')
      .where({ videoId: id, language })
      .forUpdate()
      .first();
    if (!caption) throw new AppError('not-found', `The video ${id} has no captions in ${language}.`);
    await trx('videoCaptions').where({ id: caption.id }).delete();
    await recordAudit(trx, {
      ...context,
      action: 'remove-captions',
      resource: VIDEO_RESOURCE,
      recordId: id,
      before: { language, label: caption.label, cueCount: cueCount(caption.vtt) },
    });
  });
  deps.changed();
  return getVideo(deps, id);
}
