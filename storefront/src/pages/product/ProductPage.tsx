import { useEffect } from 'react';
import { useParams } from '../../router';
import { findProduct, listProducts, type StoreProduct } from '../../api/catalog';
import { LoadStatus } from '../../LoadStatus';
import { useAsync } from '../../useAsync';
import { NotFoundPage } from '../NotFoundPage';
import { Availability } from '../Availability';
import { TYPE_LABEL } from '../productTypes';
import { PricingWidget } from './PricingWidget';

/** /products/:slugOrId: what the course is, and the pricing widget to buy it. */
export function ProductPage() {
  const { slugOrId = '' } = useParams();
  const products = useAsync(listProducts);
  if (products.status !== 'ready') return <LoadStatus state={products} retry={products.retry} what="the course" />;
  const product = findProduct(products.data, slugOrId);
  if (!product) {
    return (
      <NotFoundPage title="Course not found">
        This course does not exist or is no longer on sale.
      </NotFoundPage>
    );
  }
  return <ProductDetails key={product.id} product={product} products={products.data} />;
}

function ProductDetails({ product, products }: { product: StoreProduct; products: StoreProduct[] }) {
  useEffect(() => {
    window.scrollTo(0, 0); // arriving from the list further down the page
    const previous = document.title;
    document.title = product.name;
    return () => {
      document.title = previous;
    };
  }, [product.name]);

  return (
    <article className="product-page">
      <div className="product-about">
        <span className="badge">{TYPE_LABEL[product.productType]}</span>
        <h1>{product.name}</h1>
        {product.description && <p className="product-description">{product.description}</p>}
        <Availability product={product} />
      </div>
      <section className="product-buy" aria-label="Buy this course">
        {product.price ? (
          <PricingWidget product={product} products={products} />
        ) : (
          <p className="notice notice-info">This course is not on sale yet. Check back soon.</p>
        )}
      </section>
    </article>
  );
}
