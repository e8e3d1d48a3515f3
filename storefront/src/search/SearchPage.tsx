import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { LoadStatus } from '../LoadStatus';
import { useAsync } from '../useAsync';
import { useDocumentTitle } from '../useDocumentTitle';
import { search, type SearchResult } from './searchApi';

const TYPE_NAMES: Record<SearchResult['type'], string> = {
  product: 'Course for sale',
  course: 'Course',
  lesson: 'Lesson',
};

/** /search?q=…: what the header's search box found, best first, the matched words highlighted. */
export function SearchPage() {
  const q = (new URLSearchParams(useSearch()).get('q') ?? '').trim();
  useDocumentTitle(q ? `Search: ${q}` : 'Search');
  const results = useAsync(() => (q ? search(q) : Promise.resolve([])), [q]);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // A new search from the header: the reader lands on its results, not on the box they left.
  useEffect(() => {
    if (results.status === 'ready' && document.activeElement?.id !== 'site-search-q') headingRef.current?.focus();
  }, [results.status]);

  return (
    <section className="search-page">
      <h1 ref={headingRef} tabIndex={-1}>
        {q ? `Results for “${q}”` : 'Search'}
      </h1>
      {!q && (
        <p className="empty">Type what you are looking for in the search box above: a course, a topic, a lesson.</p>
      )}
      {q && <LoadStatus state={results} retry={results.retry} what="the results" />}
      {q && results.status === 'ready' && (
        <>
          <p role="status" className="hint">
            {results.data.length === 0
              ? 'Nothing found.'
              : `${results.data.length} ${results.data.length === 1 ? 'result' : 'results'}.`}
          </p>
          {results.data.length === 0 ? (
            <div className="empty search-empty">
              <p>Nothing matches “{q}”. Try:</p>
              <ul>
                <li>fewer words, or the start of a word (“type” finds “TypeScript”);</li>
                <li>another spelling, or a more general word (“generics” rather than a function’s name);</li>
                <li>
                  <Link to="/">browsing every course</Link>.
                </li>
              </ul>
            </div>
          ) : (
            <ol className="search-results">
              {results.data.map((result) => (
                <li key={result.url}>
                  <Link to={result.url} className="search-result-title">
                    {result.title}
                  </Link>
                  <span className="search-result-type">{TYPE_NAMES[result.type]}</span>
                  {result.snippet ? (
                    // The API escapes the text: the snippet's only element is <mark> (api/src/search/snippet.ts).
                    <p className="search-snippet" dangerouslySetInnerHTML={{ __html: result.snippet }} />
                  ) : (
                    result.type === 'lesson' && (
                      <p className="search-snippet hint">Locked: the lesson’s page says how to open it.</p>
                    )
                  )}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
