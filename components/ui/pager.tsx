import { ChevronRight } from "lucide-react";
import Link from "next/link";

import { Button } from "./button";

/**
 * Cursor paging for server-rendered tables: "First page" and "Next page"
 * links carrying the row the next page starts after (no page numbers: rows
 * come and go while someone reads).
 */
export function Pager({
  basePath,
  params,
  nextAfter,
  onFirstPage,
}: {
  basePath: string;
  params?: Record<string, string | undefined>;
  nextAfter: string | null;
  onFirstPage: boolean;
}) {
  const href = (after: string | null) => {
    const query = new URLSearchParams(
      Object.entries(params ?? {}).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    if (after) query.set("after", after);
    const text = query.toString();
    return text ? `${basePath}?${text}` : basePath;
  };
  if (onFirstPage && !nextAfter) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex justify-end gap-2">
      {!onFirstPage && (
        <Button asChild variant="outline" size="sm">
          <Link href={href(null)}>First page</Link>
        </Button>
      )}
      {nextAfter && (
        <Button asChild variant="outline" size="sm">
          <Link href={href(nextAfter)}>
            Next page
            <ChevronRight />
          </Link>
        </Button>
      )}
    </nav>
  );
}
