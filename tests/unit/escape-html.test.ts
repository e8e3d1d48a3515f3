import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../api/src/shared/escape-html';

describe('escapeHtml', () => {
  it('writes the five characters that could end HTML text or a quoted attribute as entities', () => {
    expect(escapeHtml(`Tom & Jerry's <b>"best"</b>`)).toBe('Tom &amp; Jerry&#39;s &lt;b&gt;&quot;best&quot;&lt;/b&gt;');
  });

  it('escapes an ampersand once, so an entity already in the text is shown as typed', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('leaves other text as it is', () => {
    expect(escapeHtml('Généraliste — ¥4,000')).toBe('Généraliste — ¥4,000');
  });
});
