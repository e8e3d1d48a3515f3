import { useEffect } from 'react';
import { useParams } from 'wouter';
import { getProductPage, type StoreProductPage } from '../../api/catalog';
import { isApiError } from '../../api/client';
import { LoadStatus } from '../../LoadStatus';
import { useAsync } from '../../useAsync';
import { useHead } from '../../head';
import { useSchool } from '../../school';
import { productHead } from '../../seo';
import { NotFoundPage } from '../NotFoundPage';
import { Availability } from '../Availability';
import { BuyBox } from './BuyBox';
import { Curriculum } from './Curriculum';
import { Faq } from './Faq';
import { Included } from './Included';
import { Instructors } from './Instructors';
import { MembershipBuyBox } from './MembershipBuyBox';
import { RefundPolicy } from './RefundPolicy';
import { SalesHero } from './SalesHero';
import { WorkshopSchedule } from './WorkshopSchedule';

/** /products/:slugOrId: the sales page (one answer: GET /api/store/products/:slugOrId), and the way to buy. */
export function ProductPage() {
  const { slugOrId = '' } = useParams();
  const page = useAsync(() => getProductPage(slugOrId), [slugOrId]);
  if (page.status === 'error' && isApiError(page.error, 'product-not-found')) {
    return <NotFoundPage title="Course not found">This course does not exist or is no longer on sale.</NotFoundPage>;
  }
  if (page.status !== 'ready') return <LoadStatus state={page} retry={page.retry} what="the course" />;
  return <ProductDetails key={page.data.id} product={page.data} />;
}

function ProductDetails({ product }: { product: StoreProductPage }) {
  useHead(productHead(product, useSchool().name));
  useEffect(() => {
    window.scrollTo(0, 0); // arriving from the list further down the page
  }, [product.id]);

  return (
    <article className="product-page sales-page">
      <div className="product-about">
        <SalesHero product={product} />
        <Availability product={product} />
      </div>
      <section className="product-buy" aria-label="Buy this course">
        {product.membership ? (
          <MembershipBuyBox product={product} terms={product.membership} />
        ) : (
          <BuyBox product={product} />
        )}
      </section>
      <div className="product-details">
        {product.productType === 'live' && <WorkshopSchedule productId={product.id} />}
        <Included lines={product.included} />
        <Curriculum courses={product.curriculum} />
        <Instructors instructors={product.instructors} />
        <Faq items={product.faq} />
        <RefundPolicy text={product.refundPolicy} />
      </div>
    </article>
  );
}
