import { Node } from '@tiptap/core';
import { embedAttributes, embedOf } from '../../../api/src/shared/embeds';

interface EmbedOptions {
  /** What the editor shows in place of the player: the console frames no other site (its CSP), nor should it. */
  describe: (provider: string, title: string) => string;
}

/**
 * An embed in a lesson's body: an <iframe> from the shared allow-list (api/src/shared/embeds.ts), written with the
 * same sandbox, lazy loading and title the API's sanitizer keeps; an iframe not on the list, or without a title,
 * is not read into the editor at all. The editor shows a card naming it, not the live player.
 */
export const Embed = Node.create<EmbedOptions>({
  name: 'embed',
  group: 'block',
  atom: true,
  draggable: true,

  addOptions() {
    return { describe: (provider, title) => `${provider}: ${title}` };
  },

  addAttributes() {
    return { src: { default: null }, title: { default: null } };
  },

  parseHTML() {
    return [
      {
        tag: 'iframe[src]',
        getAttrs: (element) => {
          const attributes = embedAttributes(element.getAttribute('src'), element.getAttribute('title'));
          return attributes ? { src: attributes.src, title: attributes.title } : false;
        },
      },
    ];
  },

  renderHTML({ node }) {
    return ['iframe', embedAttributes(node.attrs.src as string, node.attrs.title as string) ?? {}];
  },

  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('div');
      dom.className = 'rich-text-embed';
      dom.contentEditable = 'false';
      dom.setAttribute('role', 'img');
      const provider = embedOf(node.attrs.src as string)?.provider.name ?? '';
      const text = this.options.describe(provider, String(node.attrs.title ?? ''));
      dom.setAttribute('aria-label', text);
      dom.textContent = text;
      return { dom };
    };
  },
});
