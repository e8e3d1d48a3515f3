import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { searchPath } from './searchApi';
import './search.css';

/** Whether a key press belongs to a field or editor being typed in (there "/" is a character, not a shortcut). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The header's search box: Enter (or Search) shows the results page; "/" anywhere but in a field puts the cursor
 * here, as on many sites. On the results page it holds the search shown. On a phone the header stays one row: the
 * box is behind a Search button (search.css), open on the results page.
 */
export function SearchBox() {
  const [pathname, navigate] = useLocation();
  const query = useSearch();
  const shown = pathname === '/search' ? (new URLSearchParams(query).get('q') ?? '') : '';
  const [text, setText] = useState(shown);
  const [open, setOpen] = useState(pathname === '/search');
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => setText(shown), [shown]);
  useEffect(() => setOpen(pathname === '/search'), [pathname]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      setOpen(true);
      // Shown first where it was folded away (a phone): a hidden field takes no focus.
      requestAnimationFrame(() => {
        inputRef.current?.focus();
        inputRef.current?.select();
      });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const q = text.trim();
    if (!q) {
      inputRef.current?.focus();
      return;
    }
    navigate(searchPath(q));
  }

  function toggle() {
    const opening = !open;
    setOpen(opening);
    if (opening) requestAnimationFrame(() => inputRef.current?.focus());
  }

  return (
    <>
      <button type="button" className="search-toggle" aria-expanded={open} aria-controls="site-search" onClick={toggle}>
        <svg viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
          <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <path d="M10.5 10.5l3.5 3.5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">Search courses</span>
      </button>
      <form
        id="site-search"
        role="search"
        className="site-search"
        data-open={open || undefined}
        action="/search"
        onSubmit={submit}
      >
        <label htmlFor="site-search-q" className="visually-hidden">
          Search courses and lessons
        </label>
        <input
          ref={inputRef}
          id="site-search-q"
          type="search"
          name="q"
          value={text}
          maxLength={200}
          placeholder="Search (press /)"
          aria-keyshortcuts="/"
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit">Search</button>
      </form>
    </>
  );
}
