/** A CSV download read to its end, whether it yields strings or chunks that carry their CSV. */
export async function collectCsv(source: AsyncIterable<string | { csv: string }>) {
  let out = "";
  for await (const chunk of source) out += typeof chunk === "string" ? chunk : chunk.csv;
  return out;
}
