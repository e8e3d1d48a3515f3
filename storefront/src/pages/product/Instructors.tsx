import type { Instructor } from '../../api/catalog';
import { Paragraphs } from './Paragraphs';
import { initials } from '../initials';

/** Who teaches it: the product's owners and contributors, each with a picture (or their initials) and a bio. */
export function Instructors({ instructors }: { instructors: Instructor[] }) {
  if (instructors.length === 0) return null;
  return (
    <section className="sales-section" aria-labelledby="instructors-heading">
      <h2 id="instructors-heading">{instructors.length === 1 ? 'Your instructor' : 'Your instructors'}</h2>
      <ul className="instructor-list">
        {instructors.map((person, i) => (
          <li key={i} className="instructor">
            <Avatar person={person} />
            <div>
              <h3>{person.name}</h3>
              <p className="hint">{person.role === 'owner' ? 'Course author' : 'Contributor'}</p>
              {person.bio && <Paragraphs text={person.bio} />}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

const AVATAR_SIZE = 96;

function Avatar({ person }: { person: Instructor }) {
  if (person.avatar) {
    return (
      <img
        className="avatar"
        src={person.avatar.src}
        srcSet={person.avatar.srcSet || undefined}
        sizes={`${AVATAR_SIZE}px`}
        width={AVATAR_SIZE}
        height={AVATAR_SIZE}
        alt={`Portrait of ${person.name}`}
        loading="lazy"
        decoding="async"
      />
    );
  }
  return (
    <span className="avatar avatar-initials" aria-hidden="true">
      {initials(person.name)}
    </span>
  );
}
