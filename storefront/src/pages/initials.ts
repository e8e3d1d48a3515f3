/** "AL" for "Ada Lovelace": what a product or an instructor without a picture shows. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return letters.map((w) => [...w][0]!.toUpperCase()).join('');
}
