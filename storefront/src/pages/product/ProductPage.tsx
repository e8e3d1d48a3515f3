import { useEffect } from 'react';
import { Link, useParams } from 'wouter';
import { findProduct, listProducts, type StoreProduct } from '../../api/catalog';
import { coursePath } from '../../api/learning';
import { LoadStatus } from '../../LoadStatus';
import { useAsync } from '../../useAsync';
import { useHead } from '../../head';
import { productHead } from '../../seo';
import { NotFoundPage } from '../NotFoundPage';
import { Availability } from '../Availability';
import { TYPE_LABEL } from '../productTypes';
import { PricingWidget } from './PricingWidget';
import { WorkshopSchedule } from './WorkshopSchedule';

/** /products/:slugOrId: what the course is, and the pricing widget to buy it. */
export function ProductPage() {
  const { slugOrId = '' } = useParams();
  const products = useAsync(listProducts);
  if (products.status !== 'ready') return <LoadStatus state={products} retry={products.retry} what="the course" />;
  const product = findProduct(products.data, slugOrId);
  if (!product) {
    return <NotFoundPage title="Course not found">This course does not exist or is no longer on sale.</NotFoundPage>;
  }
  return <ProductDetails key={product.id} product={product} products={products.data} />;
}

function ProductDetails({ product, products }: { product: StoreProduct; products: StoreProduct[] }) {
  useHead(productHead(product));
  useEffect(() => {
    window.scrollTo(0, 0); // arriving from the list further down the page
  }, [product.id]);

  return (
    <article className="product-page">
      <div className="product-about">
        <span className="badge">{TYPE_LABEL[product.productType]}</span>
        <h1>{product.name}</h1>
        {product.description && <p className="product-description">{product.description}</p>}
        <Availability product={product} />
        <CourseLinks product={product} />
        {product.productType === 'live' && <WorkshopSchedule productId={product.id} />}
      </div>
      <section className="product-buy" aria-label="Buy this course">
        <PricingWidget product={product} products={products} />
      </section>
    </article>
  );
}

/** The courses the product grants: their outlines and free lessons are open to everyone, the rest to owners. */
function CourseLinks({ product }: { product: StoreProduct }) {
  const { courses } = product;
  if (courses.length === 0) return null;
  if (courses.length === 1) {
    return (
      <p>
        <Link className="button-link button-link-quiet" to={coursePath(courses[0]!)}>
          Go to the course
        </Link>
      </p>
    );
  }
  return (
    <nav aria-label="Courses included">
      <p>Includes these courses:</p>
      <ul>
        {courses.map((course) => (
          <li key={course.id}>
            <Link to={coursePath(course)}>Go to {course.title}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
