"use client";

import Link from "next/link";
import { useState, type ComponentProps } from "react";

/**
 * A link that prefetches its screen only once a person shows they may open it (pointer over it, focus,
 * a touch), not as soon as it is on screen: every dashboard screen renders on the server, and the
 * sidebar's screens prefetched all at once on each page competed with the page itself.
 */
export function IntentLink({
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: Omit<ComponentProps<typeof Link>, "prefetch">) {
  const [intent, setIntent] = useState(false);
  return (
    <Link
      {...props}
      // null is Next's default (down to the nearest loading state), so the screen's skeleton shows at once on click.
      prefetch={intent ? null : false}
      onMouseEnter={(event) => (setIntent(true), onMouseEnter?.(event))}
      onFocus={(event) => (setIntent(true), onFocus?.(event))}
      onTouchStart={(event) => (setIntent(true), onTouchStart?.(event))}
    />
  );
}
