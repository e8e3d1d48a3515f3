import { Link } from 'wouter';
import { listProducts, productPath } from '../api/catalog';
import { LoadStatus } from '../LoadStatus';
import { useSession } from '../session';
import { useAsync } from '../useAsync';
import { Availability } from './Availability';
import { CardPrice } from './CardPrice';
import { ContinueLearning } from './ContinueLearning';
import { CardImage } from './CardImage';
import { TYPE_LABEL } from './productTypes';
import { useOwnedProducts } from './useOwnedProducts';
import { SITE_DESCRIPTION, useHead } from '../head';

export function HomePage() {
  useHead({ title: 'Courses you can study at your own pace', description: SITE_DESCRIPTION });
  const { state } = useSession();
  return (
    <>
      {state.status === 'signed-in' && <ContinueLearning userId={state.user.id} />}
      <Catalog />
    </>
  );
}

function Catalog() {
  const products = useAsync(listProducts);
  // Marked on their cards; asked only for someone signed in.
  const owned = useOwnedProducts();
  return (
    <section aria-labelledby="catalog-heading">
      <h1 id="catalog-heading">Courses</h1>
      <LoadStatus state={products} retry={products.retry} what="the courses" />
      {products.status === 'ready' && products.data.length === 0 && (
        <p className="empty">No courses are on sale yet. Check back soon.</p>
      )}
      {products.status === 'ready' && products.data.length > 0 && (
        <ul className="product-grid">
          {products.data.map((product, index) => (
            <li key={product.id} className="product-card">
              {/* The first row's pictures are on screen as the page opens: loaded at once, the rest lazily. */}
              <CardImage image={product.image} eager={index < 3} />
              <span className="badge">{TYPE_LABEL[product.productType]}</span>
              <h2>
                {/* The whole card is the link's target (see .card-link); the heading keeps the accessible name. */}
                <Link to={productPath(product)} className="card-link">
                  {product.name}
                </Link>
              </h2>
              {product.description && <p>{product.description}</p>}
              <CardPrice product={product} owned={owned?.has(product.id) ?? false} />
              <Availability product={product} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
