import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createSafeHtml } from '../../admin/src/rich-text/safeHtml';
import { sanitizeRichText } from '../../api/src/learning/sanitize';
import { EMBED_FRAME_SOURCES, embedOf, embedSrcFromLink } from '../../api/src/shared/embeds';
import { contentSecurityPolicy } from '../../api/src/web/security-headers';

// Embeds (docs/domain.md §11): one allow-list (api/src/shared/embeds.ts) for the API's sanitizer, the console's and
// the CSP; whatever is not an allowed player with a title is dropped, the same way on both sides.
const consoleSafeHtml = createSafeHtml(new JSDOM('').window as unknown as Parameters<typeof createSafeHtml>[0]);

/** The iframes of a body as a DOM reads them, each attribute by name. */
const framesOf = (html: string) =>
  [...new JSDOM(`<body>${html}</body>`).window.document.querySelectorAll('iframe')].map((frame) =>
    Object.fromEntries([...frame.attributes].map((a) => [a.name, a.value])),
  );

const KEPT: { html: string; src: string; sandbox: RegExp }[] = [
  {
    html: '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="Intro" width="9" onload="x()" style="a:b"></iframe>',
    src: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
    sandbox: /^allow-scripts allow-same-origin allow-presentation/,
  },
  {
    html: '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=30" title="Intro"></iframe>',
    src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=30',
    sandbox: /allow-presentation/,
  },
  {
    html: '<iframe src="https://player.vimeo.com/video/76979871" title="Talk"></iframe>',
    src: 'https://player.vimeo.com/video/76979871',
    sandbox: /allow-presentation/,
  },
  {
    html: '<iframe src="https://codesandbox.io/embed/react-new" title="Sandbox">fallback text</iframe>',
    src: 'https://codesandbox.io/embed/react-new',
    sandbox: /allow-forms allow-modals/,
  },
  {
    html: '<iframe src="https://stackblitz.com/edit/vitejs-vite" title="Starter"></iframe>',
    src: 'https://stackblitz.com/edit/vitejs-vite?embed=1',
    sandbox: /allow-forms allow-modals/,
  },
  {
    html: '<iframe src="https://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOp/embed" title="Slides"></iframe>',
    src: 'https://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOp/embed',
    sandbox: /^allow-scripts allow-same-origin allow-popups/,
  },
];

const HOSTILE = [
  '<iframe src="javascript:alert(1)" title="x"></iframe>',
  '<iframe src="data:text/html,<script>alert(1)</script>" title="x"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>" title="x"></iframe>',
  '<iframe src="https://evil.example/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="https://www.youtube.com.evil.io/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="https://youtube.com.evil.io/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="https://evilyoutube.com/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="https://www.youtube.com@evil.io/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="https://www.youtube.com:8443/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="http://www.youtube.com/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="//www.youtube.com/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="/embed/dQw4w9WgXcQ" title="x"></iframe>',
  '<iframe src="https://www.youtube.com/logout" title="x"></iframe>',
  '<iframe src="https://docs.google.com/forms/d/1AbCdEfGhIjKlMnOp/viewform" title="x"></iframe>',
  // No title: a frame a screen reader could not name.
  '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
  '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="   "></iframe>',
  '<frame src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="x"><object data="https://www.youtube.com/embed/x">',
];

describe('embeds: one allow-list for the API, the console and the CSP', () => {
  it('keeps an allowed player with its title, sandboxed and lazy, the same on both sides', () => {
    for (const { html, src, sandbox } of KEPT) {
      const server = framesOf(sanitizeRichText(html));
      expect(framesOf(consoleSafeHtml(html))).toEqual(server);
      expect(server).toHaveLength(1);
      const frame = server[0]!;
      expect(frame.src).toBe(src);
      expect(frame.title?.length).toBeGreaterThan(0);
      expect(frame.loading).toBe('lazy');
      expect(frame.sandbox).toMatch(sandbox);
      expect(frame.sandbox).not.toMatch(/allow-top-navigation/);
      expect(Object.keys(frame).sort()).toEqual(
        ['allow', 'allowfullscreen', 'loading', 'referrerpolicy', 'sandbox', 'src', 'title'].sort(),
      );
    }
    expect(sanitizeRichText(KEPT[3]!.html)).not.toContain('fallback');
  });

  it('drops every other frame: other schemes and hosts, look-alikes, srcdoc, no title', () => {
    for (const html of HOSTILE) {
      const server = sanitizeRichText(html);
      expect(server, html).not.toMatch(/<iframe|<frame|<object|evil|javascript:|data:|srcdoc|alert/);
      expect(consoleSafeHtml(html), html).not.toMatch(/<iframe|<frame|<object|evil|javascript:|data:|srcdoc|alert/);
    }
  });

  it('turns the links people copy into the player they name', () => {
    expect(embedSrcFromLink('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3')).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    );
    expect(embedSrcFromLink('https://youtu.be/dQw4w9WgXcQ')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(embedSrcFromLink('https://vimeo.com/76979871')).toBe('https://player.vimeo.com/video/76979871');
    expect(embedSrcFromLink('https://codesandbox.io/s/react-new')).toBe('https://codesandbox.io/embed/react-new');
    expect(embedSrcFromLink('https://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOp/edit')).toBe(
      'https://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOp/embed',
    );
    for (const refused of ['https://youtube.com.evil.io/watch?v=dQw4w9WgXcQ', 'http://youtu.be/dQw4w9WgXcQ', 'x'])
      expect(embedSrcFromLink(refused)).toBeNull();
    expect(embedOf('https://www.youtube.com/embed/dQw4w9WgXcQ')?.provider.name).toBe('YouTube');
  });

  it('lets the storefront frame exactly the listed hosts, and the console none', () => {
    expect(contentSecurityPolicy(true, 'storefront')['frame-src']).toEqual(["'self'", ...EMBED_FRAME_SOURCES]);
    expect(contentSecurityPolicy(true, 'console')['frame-src']).toEqual(["'self'"]);
    expect(EMBED_FRAME_SOURCES).toEqual([
      'https://www.youtube.com',
      'https://www.youtube-nocookie.com',
      'https://player.vimeo.com',
      'https://codesandbox.io',
      'https://stackblitz.com',
      'https://docs.google.com',
    ]);
  });
});
