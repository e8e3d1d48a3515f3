/** "What's included": the lines the API worked out from the data, then the ones staff added in the console. */
export function Included({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <section className="sales-section included" aria-labelledby="included-heading">
      <h2 id="included-heading">What’s included</h2>
      <ul className="included-list">
        {lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
