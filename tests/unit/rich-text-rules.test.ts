import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createSafeHtml } from '../../admin/src/rich-text/safeHtml';
import { sanitizeRichText } from '../../api/src/learning/sanitize';

// The console shows stored rich text through DOMPurify, the API stores it through sanitize-html: one allow-list
// (api/src/shared/rich-text-rules.ts), so the same body comes out the same on both sides.
const consoleSafeHtml = createSafeHtml(new JSDOM('').window as unknown as Parameters<typeof createSafeHtml>[0]);

/** Both outputs parsed and re-serialised by one DOM, so attribute quoting and order do not count as differences. */
const normalized = (html: string) => {
  const body = new JSDOM(`<body>${html}</body>`).window.document.body;
  for (const element of body.querySelectorAll('*')) {
    const attributes = [...element.attributes].map((a) => [a.name, a.value] as const).sort();
    for (const [name] of attributes) element.removeAttribute(name);
    for (const [name, value] of attributes) element.setAttribute(name, value);
  }
  return body.innerHTML;
};

const KEPT = [
  '<h2>Title</h2><p>Some <strong>bold</strong>, <em>italic</em>, <u>under</u>, <s>struck</s> and <code>code</code>.</p>',
  '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote><p>quoted</p></blockquote><hr>',
  '<p><a href="https://example.com/x" title="X" target="_blank">link</a> <a href="/lessons/1">relative</a> <a href="mailto:a@example.com">mail</a></p>',
  '<p><img src="https://example.com/a.png" alt="A" width="20" height="10"><img src="/media/b.png" alt="B"></p>',
  '<pre class="language-ts"><code class="language-ts">const a = 1;</code></pre>',
  '<table><colgroup><col style="min-width: 25px"></colgroup><tbody><tr><th colspan="2">H</th></tr><tr><td rowspan="1" colwidth="90">D</td></tr></tbody></table>',
];

const STRIPPED = [
  '<p onclick="alert(1)">handler</p><script>alert(1)</script><style>p{}</style>',
  '<a href="javascript:alert(1)">js link</a><a href="//evil.example/x">protocol-relative</a>',
  '<img src="data:image/png;base64,AAAA" alt="data"><img src="//evil.example/x.png" alt="protocol-relative">',
  '<iframe src="https://evil.example"></iframe><object data="x"></object><svg><circle r="1"></circle></svg>',
  '<p class="evil" style="color:red" id="x" data-x="1">attributes</p><pre class="language-ts evil">code</pre>',
  '<col style="width: 10px; background: url(x)"><div>unwrapped div</div><font color="red">font</font>',
  '<a href="https://example.com" rel="opener">rel replaced</a>',
];

describe('rich text: one allow-list for the API and the console', () => {
  it('keeps what the editor writes, the same on both sides', () => {
    for (const html of KEPT) {
      const server = normalized(sanitizeRichText(html));
      expect(normalized(consoleSafeHtml(html))).toBe(server);
      expect(server).toContain(html.includes('<a ') ? 'noopener noreferrer' : '<');
    }
    expect(sanitizeRichText(KEPT[4]!)).toContain('class="language-ts"');
  });

  it('strips scripts, handlers, unsafe URLs and unknown attributes the same way on both sides', () => {
    for (const html of STRIPPED) {
      const server = normalized(sanitizeRichText(html));
      expect(normalized(consoleSafeHtml(html))).toBe(server);
      expect(server).not.toMatch(
        /onclick|<script|javascript:|evil\.example|data:|<iframe|<svg|style="color|class="evil/,
      );
    }
  });
});
