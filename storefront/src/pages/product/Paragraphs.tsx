/** Plain text as paragraphs (one per blank-line-separated block, line breaks kept): never read as HTML. */
export function Paragraphs({ text }: { text: string }) {
  const blocks = text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
  return (
    <>
      {blocks.map((block, i) => (
        <p key={i} className="plain-text">
          {block}
        </p>
      ))}
    </>
  );
}
