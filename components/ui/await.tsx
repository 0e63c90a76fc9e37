import type { ReactNode } from "react";

/**
 * Renders what a promise gives, inside a Suspense boundary: the rest of the page is shown while a
 * slow read finishes, and the boundary's fallback stands in for it until then. Server-only.
 */
export async function Await<T>({ promise, children }: { promise: Promise<T>; children: (value: T) => ReactNode }) {
  return children(await promise);
}
