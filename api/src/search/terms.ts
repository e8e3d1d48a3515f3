/** The most words of a search that count: a longer search is mostly noise, and each word is a term to match. */
const MAX_TERMS = 12;

/**
 * A reader's search as a tsquery's text: each word (letters, their marks and digits, any script) as a prefix, all required
 * ("type fund" finds "TypeScript Fundamentals" while typing). Only letters, marks and digits reach to_tsquery, so no
 * operator or quote the reader typed can change the query. Empty when nothing searchable was typed ("!!!").
 */
export function searchTerms(q: string): string {
  const words =
    q
      .normalize('NFC')
      .toLowerCase()
      // A word's combining marks are part of it (Devanagari's vowel signs, Arabic's vowels): split at them, "हिंदी"
      // would be two words neither of which starts a word of the text. A word starts with a letter or digit.
      .match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? [];
  return [...new Set(words)]
    .slice(0, MAX_TERMS)
    .map((word) => `${word}:*`)
    .join(' & ');
}
