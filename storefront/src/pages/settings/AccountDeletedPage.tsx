import { Link } from 'wouter';
import { useDocumentTitle } from '../../useDocumentTitle';

/** Where Settings lands once the account is deleted: the person is signed out, and told what stayed. */
export function AccountDeletedPage() {
  useDocumentTitle('Account deleted');
  return (
    <section className="narrow account-deleted">
      <h1>Your account was deleted</h1>
      <p>
        You are signed out on every device, and your personal data is gone. We keep the records of your purchases and
        payments, without your name or email, as the law requires.
      </p>
      <p>
        Signing in again with the same email address starts a new, empty account. <Link to="/">Browse the courses</Link>
      </p>
    </section>
  );
}
