/**
 * The name a person is shown by to others (comments, a team's roster): their display name, or without one
 * "Learner 4F2A", a short code derived from their id. Never their email; the same person always gets the same code,
 * and two people in one thread almost never share one (16 bits: 1 in 65,536 per pair), so a thread of nameless
 * learners still reads as a conversation between different people.
 */
export function shownName(person: { id: string; name?: string | null }): string {
  return person.name?.trim() || defaultName(person.id);
}

/** "Learner 4F2A": FNV-1a over the whole id (ids made in the same instant may share a prefix), folded to 16 bits. */
export function defaultName(id: string): string {
  let hash = 0x811c9dc5;
  for (const char of id.toLowerCase()) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const code = ((hash >>> 16) ^ (hash & 0xffff)).toString(16).toUpperCase().padStart(4, '0');
  return `Learner ${code}`;
}
