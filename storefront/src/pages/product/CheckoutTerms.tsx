import { Link } from 'wouter';
import { SCHOOL_PAGES } from '../../SiteFooter';

/**
 * What a buyer agrees to, said next to the button that starts checkout (consumer law asks that the terms be given
 * before the order); on a product page, the refund policy it shows too.
 */
export function CheckoutTerms({ refundPolicy = false }: { refundPolicy?: boolean }) {
  return (
    <p className="checkout-terms">
      By buying you agree to the <Link to={SCHOOL_PAGES.terms}>Terms</Link> and the{' '}
      <Link to={SCHOOL_PAGES.privacy}>Privacy notice</Link>
      {refundPolicy && (
        <>
          ; see also the <a href="#refund-heading">refund policy</a>
        </>
      )}
      .
    </p>
  );
}
