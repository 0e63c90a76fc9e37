import { NextResponse, type NextRequest } from "next/server";

/**
 * A signed-out visit to a dashboard page goes to sign-in with the page as its callbackUrl, so a deep link
 * (a campaign's report mailed to a colleague) is where they land after signing in. Only the path and query
 * of this site are carried; the sign-in page and next-auth check them again (safeCallbackUrl). Only the
 * cookie's presence is looked at: an expired or forged one is the page's to refuse, as before.
 */
export function proxy(request: NextRequest) {
  if (request.method !== "GET" && request.method !== "HEAD") return NextResponse.next();
  const signedIn = request.cookies.getAll().some((cookie) => cookie.name.includes("next-auth.session-token"));
  if (signedIn) return NextResponse.next();
  const back = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  const signIn = request.nextUrl.clone();
  signIn.pathname = "/signin";
  signIn.search = back === "/" ? "" : `?callbackUrl=${encodeURIComponent(back)}`;
  return NextResponse.redirect(signIn);
}

export const config = { matcher: ["/", "/w/:path*", "/operator/:path*"] };
