import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { LessonVideo } from '../support/models';
import type { ContentResource } from '../../api/src/learning/models';
import { createStorage } from '../../api/src/media/storage';
import { createResource, linkResource } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/**
 * A contributor reads in the console what the content list shows them: their own content whole, other authors'
 * published content without what learners pay for, other authors' drafts not at all. The outline, the videos and
 * their posters say the same.
 */
describe('what a contributor reads of other authors’ content', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let writer: SignedIn;
  let rival: SignedIn;
  let support: SignedIn;
  let rivalDraft: ContentResource;
  let rivalPublished: ContentResource;
  let ownCourse: ContentResource;
  let videos: Record<'own' | 'rivalPaid' | 'rivalDraft', string>;

  /** A ready video with a poster on a lesson, as processing leaves it. */
  async function videoOn(lesson: ContentResource): Promise<string> {
    const id = randomUUID();
    const posterKey = `videos/${id}/v1/poster.jpg`;
    await createStorage(testConfig()).put(posterKey, Buffer.from('poster of ' + lesson.id), 'image/jpeg');
    await LessonVideo.query(db()).insert({
      id,
      lessonId: lesson.id,
      status: 'ready',
      progress: 100,
      version: 1,
      sourceKey: `videos/${id}/source/v1.mp4`,
      sourceName: `${lesson.fields.title}.mp4`,
      sourceSize: 1000,
      durationMs: 60_000,
      width: 1280,
      height: 720,
      renditionHeights: [720],
      hlsKey: `videos/${id}/v1/master.m3u8`,
      posterKey,
      processedAt: new Date(),
    });
    return id;
  }

  beforeAll(async () => {
    writer = await signedIn(db(), ['contributor']);
    rival = await signedIn(db(), ['contributor']);
    support = await signedIn(db(), ['support']);
    const by = (author: SignedIn) => author.user.id;
    // Another author's unpublished course: a draft module holding a published lesson, and a draft lesson.
    rivalDraft = await createResource(db(), 'course', { title: 'Secret Course', state: 'draft' }, by(rival));
    const draftModule = await createResource(
      db(),
      'module',
      { title: 'Unannounced Module', state: 'draft' },
      by(rival),
    );
    const hidden = await createResource(db(), 'lesson', { title: 'Hidden Lesson', body: '<p>x</p>' }, by(rival));
    await linkResource(db(), rivalDraft, draftModule, 0);
    await linkResource(db(), draftModule, hidden, 0);
    // Another author's published course, with a draft lesson in it and a published paid lesson.
    rivalPublished = await createResource(db(), 'course', { title: 'Public Course' }, by(rival));
    const paid = await createResource(db(), 'lesson', { title: 'Paid Lesson', body: '<p>paid</p>' }, by(rival));
    const upcoming = await createResource(
      db(),
      'lesson',
      { title: 'Upcoming Lesson', body: '<p>soon</p>', state: 'draft' },
      by(rival),
    );
    await linkResource(db(), rivalPublished, paid, 0);
    await linkResource(db(), rivalPublished, upcoming, 1);
    // Their own draft course, with another author's published lesson linked in by support.
    ownCourse = await createResource(db(), 'course', { title: 'My Course', state: 'draft' }, by(writer));
    const mine = await createResource(
      db(),
      'lesson',
      { title: 'My Lesson', body: '<p>mine</p>', state: 'draft' },
      by(writer),
    );
    await linkResource(db(), ownCourse, mine, 0);
    await linkResource(db(), ownCourse, paid, 1);
    videos = { own: await videoOn(mine), rivalPaid: await videoOn(paid), rivalDraft: await videoOn(upcoming) };
  });

  const get = (who: SignedIn, url: string) => as(who, request(app()).get(url));
  const titles = (node: { title: string; children: unknown[] }): string[] => [
    node.title,
    ...(node.children as { title: string; children: unknown[] }[]).flatMap(titles),
  ];

  it('gets no outline of another author’s draft, and no drafts of theirs inside a published outline, nor their links', async () => {
    const secret = await get(writer, `/api/admin/content-resources/${rivalDraft.id}/tree`);
    expect(secret.status).toBe(404);
    expect(secret.body.code).toBe('not-found');
    expect(JSON.stringify(secret.body)).not.toContain('Unannounced');

    const published = await get(writer, `/api/admin/content-resources/${rivalPublished.id}/tree`);
    expect(published.status).toBe(200);
    expect(titles(published.body)).toEqual(['Public Course', 'Paid Lesson']);

    const own = await get(writer, `/api/admin/content-resources/${ownCourse.id}/tree`);
    expect(titles(own.body)).toEqual(['My Course', 'My Lesson', 'Paid Lesson']);

    // Nor through the links that make outlines: none of another author's draft, nor to their drafts.
    const links = async (who: SignedIn, of: ContentResource) =>
      (
        await get(who, `/api/admin/content-resource-resources?filter=${JSON.stringify({ resourceOfId: of.id })}`)
      ).body.map((l: { resourceId: string }) => l.resourceId);
    expect(await links(writer, rivalDraft)).toEqual([]);
    expect(await links(writer, rivalPublished)).toHaveLength(1);
    expect(await links(rival, rivalDraft)).toHaveLength(1);
    expect(await links(support, rivalPublished)).toHaveLength(2);

    // Their author and staff see every part.
    expect(titles((await get(rival, `/api/admin/content-resources/${rivalDraft.id}/tree`)).body)).toEqual([
      'Secret Course',
      'Unannounced Module',
      'Hidden Lesson',
    ]);
    expect(titles((await get(support, `/api/admin/content-resources/${rivalPublished.id}/tree`)).body)).toEqual([
      'Public Course',
      'Paid Lesson',
      'Upcoming Lesson',
    ]);
  });

  it('lists, exports, reads and previews only the videos of their own lessons', async () => {
    const listed = await get(writer, '/api/admin/videos');
    expect(listed.status).toBe(200);
    expect(listed.body.map((v: { id: string }) => v.id)).toEqual([videos.own]);
    expect(listed.headers['content-range']).toBe('videos 0-0/1');

    const exported = await get(writer, '/api/admin/videos/export.csv');
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(videos.own);
    expect(exported.text).not.toContain(videos.rivalPaid);
    expect(exported.text).not.toContain(videos.rivalDraft);

    for (const other of [videos.rivalPaid, videos.rivalDraft]) {
      for (const url of [`/api/admin/videos/${other}`, `/api/admin/videos/${other}/poster.jpg`]) {
        const refused = await get(writer, url);
        expect(refused.status, url).toBe(404);
        expect(refused.body.code, url).toBe('not-found');
      }
    }
    const lessonOf = async (id: string) => (await LessonVideo.query(db()).findById(id))!.lessonId;
    expect((await get(writer, `/api/admin/lessons/${await lessonOf(videos.rivalPaid)}/video`)).status).toBe(404);

    // Their own, whole; the other author and staff read theirs.
    expect((await get(writer, `/api/admin/videos/${videos.own}`)).body.id).toBe(videos.own);
    const poster = await get(writer, `/api/admin/videos/${videos.own}/poster.jpg`);
    expect(poster.status).toBe(200);
    expect((await get(writer, `/api/admin/lessons/${await lessonOf(videos.own)}/video`)).body.id).toBe(videos.own);
    expect((await get(rival, `/api/admin/videos/${videos.rivalPaid}/poster.jpg`)).status).toBe(200);
    const all = await get(support, '/api/admin/videos');
    expect(all.body.map((v: { id: string }) => v.id).sort()).toEqual(Object.values(videos).sort());
    const finance = await signedIn(db(), ['finance']);
    expect((await get(finance, `/api/admin/videos/${videos.rivalDraft}`)).status).toBe(200);
  });
});
