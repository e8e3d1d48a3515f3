import { Link } from 'wouter';
import type { StoreProductPage } from '../../api/catalog';
import { coursePath } from '../../api/learning';

/**
 * Instead of the buy box for someone who holds the product: the way into the course the product is about (the first
 * it grants, in the product's own order), then any other course it includes.
 */
export function OwnedCourse({ product }: { product: StoreProductPage }) {
  const courses = product.curriculum.length > 0 ? product.curriculum : product.courses;
  const [main, ...others] = courses;
  return (
    <div className="owned-box">
      <p className="owned-title">
        <span aria-hidden="true">✓ </span>You own {product.name}.
      </p>
      {main ? (
        <>
          <p>
            <Link className="button-link" to={coursePath(main)}>
              Go to your course
            </Link>
          </p>
          <p className="hint">{main.title}</p>
        </>
      ) : (
        <p>
          <Link className="button-link" to="/learning">
            Go to My learning
          </Link>
        </p>
      )}
      {others.length > 0 && (
        <nav aria-label="Also included">
          <p>Also included:</p>
          <ul>
            {others.map((course) => (
              <li key={course.id}>
                <Link to={coursePath(course)}>{course.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <p className="hint">
        Receipts and invoices are in <Link to="/purchases">My purchases</Link>.
      </p>
    </div>
  );
}
