import { Link } from 'wouter';
import { productPath } from '../../api/catalog';
import type { CourseView } from '../../api/learning';

/**
 * Under a free lesson, for someone who does not hold the course: one quiet line that says it is a preview and where
 * the rest is sold. Not a wall: the lesson stays whole above it. Nothing for a course that is not on sale.
 */
export function FreePreviewNote({ outline }: { outline: CourseView }) {
  const [product] = outline.products;
  if (outline.access.full || !product) return null;
  return (
    <p className="free-preview-note">
      This lesson is a free preview of {outline.course.title}.{' '}
      <Link to={productPath(product)}>
        Get the whole course<span className="visually-hidden">: {product.name}</span>
      </Link>
    </p>
  );
}
