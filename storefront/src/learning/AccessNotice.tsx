import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { CourseView, Lock } from '../api/learning';
import { countryName } from '../format';
import { useHere } from '../navigation';
import { loginPath } from '../redirects';
import { BuyLinks } from './BuyLinks';
import { UnlockLinks } from './UnlockLinks';

type Products = CourseView['products'];

const TEAM_HINT = (
  <p className="hint">
    Has your team bought seats? Open the invite link from your team’s owner to take one. Bought seats for your team
    yourself? Take one from “Manage team” in <Link to="/purchases">My purchases</Link>.
  </p>
);

/**
 * Why the paid lessons are closed to this learner, and how to open them: sign in, buy (or buy full access instead
 * of a regional price), or take a team seat.
 */
export function AccessNotice({ lock, products, what }: { lock: Lock; products: Products; what: 'course' | 'lesson' }) {
  const here = useHere();
  const subject = what === 'lesson' ? 'This lesson' : 'Most lessons of this course';
  let title: string;
  let body: ReactNode;
  switch (lock.reason) {
    case 'sign-in':
      title = what === 'lesson' ? 'Sign in to study this lesson' : 'Sign in to study this course';
      body = (
        <>
          <p>
            {subject} {what === 'lesson' ? 'is' : 'are'} for learners who bought the course. Bought it already, or have
            a seat from your team? Sign in with that email address.
          </p>
          <p>
            <Link className="button-link" to={loginPath(here)}>
              Sign in
            </Link>
          </p>
          <p>Not yet yours?</p>
          <BuyLinks products={products} label={(name) => `Buy ${name}`} />
        </>
      );
      break;
    case 'purchase':
      title =
        what === 'lesson' ? 'This lesson is for learners who bought the course' : 'Buy the course to open every lesson';
      body = (
        <>
          <p>The free lessons are open to everyone. Buy the course to study the rest, at your own pace.</p>
          <BuyLinks products={products} label={(name) => `Buy ${name}`} />
          {TEAM_HINT}
        </>
      );
      break;
    case 'region': {
      const country = lock.purchaseCountry ? countryName(lock.purchaseCountry) : 'the country you bought it in';
      title = `Your regional price works in ${country} only`;
      body = (
        <>
          <p>
            You bought this course at a price adjusted for {country}, so it opens only from there, and you seem to be
            somewhere else now. Study from {country}, or unlock full access to study from anywhere: what you already
            paid is taken off the price.
          </p>
          <UnlockLinks products={products} />
        </>
      );
      break;
    }
    case 'ended':
      title = lock.status === 'Disputed' ? 'Access is paused' : 'Your access has ended';
      body = (
        <>
          <p>
            {lock.status === 'Refunded'
              ? 'Your purchase was refunded, so the course is no longer open to you. Buy it again to study.'
              : lock.status === 'Disputed'
                ? 'The payment is disputed with your bank; access comes back when the dispute is settled in our favour.'
                : lock.status === 'Revoked'
                  ? 'Your team seat was taken back by the team’s owner. Ask them for a seat, or buy the course yourself: your progress is kept.'
                  : 'Your access to this course was removed. Contact support if you think this is a mistake.'}
          </p>
          {(lock.status === 'Refunded' || lock.status === 'Revoked') && (
            <BuyLinks products={products} label={(name) => `Buy ${name}`} />
          )}
        </>
      );
      break;
  }
  return (
    <section className="notice notice-info access-notice" aria-labelledby="access-heading">
      <h2 id="access-heading">{title}</h2>
      {body}
    </section>
  );
}
