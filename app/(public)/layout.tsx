import type { ReactNode } from "react";

// Hosted pages for subscribers: no sign-in, no script needed; every form works as a plain POST.
export default function PublicLayout({ children }: { children: ReactNode }) {
  return <main className="centered card public-page">{children}</main>;
}
