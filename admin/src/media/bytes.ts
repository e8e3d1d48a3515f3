const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** The unit a size is written in (binary, as the API's messages): GB, MB, or KB below a megabyte. */
function unitOf(bytes: number): (value: number) => string {
  if (bytes >= GB) return (value) => `${oneDecimal.format(value / GB)} GB`;
  if (bytes >= MB) return (value) => `${oneDecimal.format(value / MB)} MB`;
  return (value) => `${integer.format(Math.ceil(value / KB))} KB`;
}

/** A file's size: "12.3 MB", "4.7 GB", "3 KB". */
export const formatBytes = (bytes: number) => unitOf(bytes)(bytes);

/** Part of a whole, both in the whole's unit: ["12.3 MB", "45.6 MB"], ["0.5 GB", "4.7 GB"]. */
export function formatBytesPair(part: number, whole: number): [string, string] {
  const format = unitOf(whole);
  return [format(part), format(whole)];
}
