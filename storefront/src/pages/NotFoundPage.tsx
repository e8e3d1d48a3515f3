import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useHead } from '../head';

export function NotFoundPage({ title = 'Page not found', children }: { title?: string; children?: ReactNode }) {
  useHead({ title, status: 404 }); // a real 404 from the server, too
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
