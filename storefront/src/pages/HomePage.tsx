import { Link } from 'wouter';
import { listProducts, productPath, type StoreProduct } from '../api/catalog';
import { LoadStatus } from '../LoadStatus';
import { useSession } from '../session';
import { useAsync } from '../useAsync';
import { Availability } from './Availability';
import { CardPrice } from './CardPrice';
import { ContinueLearning } from './ContinueLearning';
import { CardFacts } from './CardFacts';
import { CardImage } from './CardImage';
import { TYPE_LABEL } from './productTypes';
import { useOwnedProducts } from './useOwnedProducts';
import { SITE_DESCRIPTION, useHead } from '../head';
import { homeHead } from './courseList';

const HEAD = { title: 'Courses you can study at your own pace', description: SITE_DESCRIPTION };

export function HomePage() {
  const { state } = useSession();
  // In the API's order: what can be bought now first, by the featured order set in the console, then the rest.
  const products = useAsync(listProducts);
  useHead(products.status === 'ready' ? homeHead(products.data, HEAD) : HEAD);
  return (
    <>
      {state.status === 'signed-in' && <ContinueLearning userId={state.user.id} />}
      <Catalog products={products} />
    </>
  );
}

function Catalog({ products }: { products: ReturnType<typeof useAsync<StoreProduct[]>> }) {
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
              <CardImage image={product.image} name={product.name} eager={index < 3} />
              <span className="badge">{TYPE_LABEL[product.productType]}</span>
              <h2>
                {/* The whole card is the link's target (see .card-link); the heading keeps the accessible name. */}
                <Link to={productPath(product)} className="card-link">
                  {product.name}
                </Link>
              </h2>
              <CardFacts product={product} />
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
