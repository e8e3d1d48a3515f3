import { bindDeps } from '../shared/bind-deps';
import type { VideoAdminDeps } from './admin-deps';
import { attachSource } from './attach-source';
import { deleteCaption, putCaption } from './captions';
import { checkUploadLesson, requireEditableLesson } from './video-authorship';
import { removeVideo, retryVideo } from './video-lifecycle';
import { getVideo, listVideos, videoByLesson, videoPoster } from './video-reads';

export type { VideoWriteContext } from './admin-deps';
export { VIDEO_LIST } from './video-reads';

/**
 * Lesson videos in the console, one module per part: a new source (from a tus upload or the command line) becomes
 * the lesson's video and its processing job in one transaction (attach-source.ts); list and read them with their
 * captions (video-reads.ts); retry a failed one or delete one, its storage after the commit (video-lifecycle.ts);
 * put and remove WebVTT captions (captions.ts). Every write is audited; video-authorship.ts says who may make it.
 */
export function videoAdmin({
  changed = () => {},
  processHere = true,
  ...deps
}: Omit<VideoAdminDeps, 'changed' | 'processHere'> & Partial<Pick<VideoAdminDeps, 'changed' | 'processHere'>>) {
  const bound = bindDeps<VideoAdminDeps>({ ...deps, changed, processHere });
  return {
    requireEditableLesson: bound(requireEditableLesson),
    checkUploadLesson: bound(checkUploadLesson),
    attachSource: bound(attachSource),
    list: bound(listVideos),
    getOne: bound(getVideo),
    byLesson: bound(videoByLesson),
    retry: bound(retryVideo),
    remove: bound(removeVideo),
    putCaption: bound(putCaption),
    deleteCaption: bound(deleteCaption),
    poster: bound(videoPoster),
  };
}

export type VideoAdmin = ReturnType<typeof videoAdmin>;
