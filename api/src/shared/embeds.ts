/**
 * The sites a lesson may embed (docs/domain.md §11): one list for the API's sanitiser (learning/sanitize.ts), the
 * console's sanitiser and editor (admin/src/rich-text/) and the site's Content-Security-Policy (frame-src), so an
 * embed the editor offers is one the server keeps and the browser loads. Changing it is an administrator's decision
 * made in a release, never at run time: the CSP and both sanitisers must move together. No dependencies.
 *
 * An embed is an <iframe> over HTTPS whose host is one of these exactly (no look-alike, no port, no user name) and
 * whose path is the provider's player; it always carries the provider's sandbox, `loading="lazy"` and a title.
 */
export interface EmbedProvider {
  name: string;
  /** The hosts it is served from, exactly. */
  hosts: readonly string[];
  /** The player's path: anything else on the host (a sign-in page, an upload form) is not an embed. */
  path: RegExp;
  /** What the frame may do: as little as the player needs to run. */
  sandbox: string;
  /** Permissions Policy for the frame (its `allow`). */
  allow: string;
}

const VIDEO_SANDBOX = 'allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox';
const CODE_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-modals allow-popups allow-downloads';

export const EMBED_PROVIDERS: readonly EmbedProvider[] = [
  {
    name: 'YouTube',
    hosts: ['www.youtube.com', 'www.youtube-nocookie.com'],
    path: /^\/embed\/[\w-]{6,20}$/,
    sandbox: VIDEO_SANDBOX,
    allow: 'encrypted-media; fullscreen; picture-in-picture',
  },
  {
    name: 'Vimeo',
    hosts: ['player.vimeo.com'],
    path: /^\/video\/\d{1,12}$/,
    sandbox: VIDEO_SANDBOX,
    allow: 'fullscreen; picture-in-picture',
  },
  {
    name: 'CodeSandbox',
    hosts: ['codesandbox.io'],
    path: /^\/(?:embed|p\/sandbox|p\/devbox|p\/github)\/[\w.@/-]{1,200}$/,
    sandbox: CODE_SANDBOX,
    allow: 'clipboard-write',
  },
  {
    name: 'StackBlitz',
    hosts: ['stackblitz.com'],
    path: /^\/(?:edit|github|fork)\/[\w.@/-]{1,200}$/,
    sandbox: CODE_SANDBOX,
    allow: 'clipboard-write',
  },
  {
    name: 'Google Slides',
    hosts: ['docs.google.com'],
    path: /^\/presentation\/d\/(?:e\/)?[\w-]{10,120}\/embed$/,
    sandbox: 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox',
    allow: 'fullscreen',
  },
];

/** The frame-src sources of the site's CSP: every host above, over HTTPS. */
export const EMBED_FRAME_SOURCES: readonly string[] = EMBED_PROVIDERS.flatMap((p) =>
  p.hosts.map((h) => `https://${h}`),
);

/** The attributes an embed is stored and shown with, each always set; any other attribute is dropped. */
export const EMBED_ATTRIBUTES = ['src', 'title', 'loading', 'sandbox', 'allow', 'referrerpolicy', 'allowfullscreen'];

/** The longest title kept. */
export const EMBED_TITLE_MAX = 200;

/** The provider and canonical address of an embed's `src`, or null when it is not one of the list's players. */
export function embedOf(src: string | null | undefined): { provider: EmbedProvider; src: string } | null {
  if (typeof src !== 'string' || !/^https:\/\//i.test(src.trim())) return null;
  let url: URL;
  try {
    url = new URL(src.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const provider = EMBED_PROVIDERS.find((p) => p.hosts.includes(url.hostname) && p.path.test(url.pathname));
  if (!provider) return null;
  // StackBlitz shows its whole editor page unless asked for the embed view.
  if (provider.name === 'StackBlitz') url.searchParams.set('embed', '1');
  return { provider, src: url.href };
}

/** The iframe's attributes for a `src` and title, or null: not an allowed player, or no title to announce it by. */
export function embedAttributes(
  src: string | null | undefined,
  title: string | null | undefined,
): Record<string, string> | null {
  const embed = embedOf(src);
  const name = (title ?? '').replace(/\s+/g, ' ').trim().slice(0, EMBED_TITLE_MAX);
  if (!embed || !name) return null;
  return {
    src: embed.src,
    title: name,
    loading: 'lazy',
    sandbox: embed.provider.sandbox,
    allow: embed.provider.allow,
    // The site sends no Referer elsewhere (same-origin); players (YouTube's) refuse to play without the origin.
    referrerpolicy: 'strict-origin',
    allowfullscreen: '',
  };
}

/**
 * The player's address for a page's address as people copy it (a YouTube watch or youtu.be link, a Vimeo page,
 * a StackBlitz or CodeSandbox project, a Google Slides deck), or null when it names none of the list's players.
 */
export function embedSrcFromLink(link: string): string | null {
  const direct = embedOf(link);
  if (direct) return direct.src;
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:') return null;
  const host = url.hostname;
  const youTubeId = /^[\w-]{6,20}$/;
  if ((host === 'www.youtube.com' || host === 'youtube.com' || host === 'm.youtube.com') && url.pathname === '/watch') {
    const id = url.searchParams.get('v');
    return id && youTubeId.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
  }
  if (host === 'youtu.be') {
    const id = url.pathname.slice(1);
    return youTubeId.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;
  }
  if (host === 'vimeo.com' || host === 'www.vimeo.com') {
    const id = /^\/(\d{1,12})$/.exec(url.pathname)?.[1];
    return id ? `https://player.vimeo.com/video/${id}` : null;
  }
  if (host === 'codesandbox.io') {
    const id = /^\/s\/([\w-]{1,100})$/.exec(url.pathname)?.[1];
    return id ? `https://codesandbox.io/embed/${id}` : null;
  }
  if (host === 'docs.google.com') {
    const deck = /^(\/presentation\/d\/(?:e\/)?[\w-]{10,120})\/(?:edit|pub|view|present)$/.exec(url.pathname)?.[1];
    return deck ? (embedOf(`https://docs.google.com${deck}/embed`)?.src ?? null) : null;
  }
  return null;
}
