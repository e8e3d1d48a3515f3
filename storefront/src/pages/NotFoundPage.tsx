import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useDocumentTitle } from '../useDocumentTitle';

export function NotFoundPage({ title = 'Page not found', children }: { title?: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section>
      <h1>{title}</h1>
      <p>
        {children ?? 'The page you asked for does not exist. It may have moved.'} <Link to="/">Browse the courses</Link>{' '}
        instead.
      </p>
    </section>
  );
}
