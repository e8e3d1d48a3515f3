import { describe, expect, it } from 'vitest';
import { MATCH_END, MATCH_START, snippetHtml } from '../../api/src/search/snippet';
import { searchTerms } from '../../api/src/search/terms';

const marked = (word: string) => `${MATCH_START}${word}${MATCH_END}`;

describe('search snippets and terms (docs/domain.md §24)', () => {
  it('escapes the whole text and turns only the match marks into <mark>', () => {
    expect(snippetHtml(`a <img src=x onerror=alert(1)> & "q" 'x' ${marked('<b>')} end`)).toBe(
      'a &lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;x&#39; <mark>&lt;b&gt;</mark> end',
    );
  });

  it('closes a mark left open, ignores a stray end, and gives null for nothing to show', () => {
    expect(snippetHtml(`${MATCH_END}x ${MATCH_START}open`)).toBe('x <mark>open</mark>');
    expect(snippetHtml(null)).toBeNull();
    expect(snippetHtml(`  \n ${MATCH_START}${MATCH_END} `)).toBeNull();
    expect(snippetHtml('one\n\n  two')).toBe('one two');
  });

  it('makes each word a required prefix, leaving out anything that could be a tsquery operator', () => {
    expect(searchTerms('Type Fund')).toBe('type:* & fund:*');
    expect(searchTerms(`a' | b:* & !c <-> (d)`)).toBe('a:* & b:* & c:* & d:*');
    expect(searchTerms('Café café')).toBe('café:*');
    expect(searchTerms('!!! ???')).toBe('');
    // Combining marks belong to their word (Devanagari's vowel signs); a stray one starts none.
    expect(searchTerms('हिंदी पाठ्यक्रम')).toBe('हिंदी:* & पाठ्यक्रम:*');
    expect(searchTerms('\u0301 x\u0301y')).toBe('x\u0301y:*');
  });
});
