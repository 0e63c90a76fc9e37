import type { Metadata } from "next";
import { headers } from "next/headers";

import { BrandFooter } from "@/components/brand-footer";
import { InvalidLink } from "@/components/invalid-link";
import { confirmSubscription } from "@/lib/consent/confirm-subscription";
import { defaultCtx } from "@/lib/context";
import { clientIpFromHeaders } from "@/lib/http/client-ip";

import { signUpAgainAction } from "./actions";

export const metadata: Metadata = { title: "Confirm your subscription", robots: { index: false } };

/** The double opt-in link. Confirming by GET is safe to repeat: a second visit says it is already done. */
export default async function ConfirmPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ resent?: string }>;
}) {
  const { token } = await params;
  const { resent } = await searchParams;
  const requestHeaders = await headers();
  const ip = clientIpFromHeaders(requestHeaders);
  const result = await confirmSubscription(defaultCtx(), token, { ip, userAgent: requestHeaders.get("user-agent") });

  if (result.outcome === "invalid") {
    return <InvalidLink />;
  }
  const { brand, topic } = result;
  return (
    <>
      {result.outcome === "confirmed" && (
        <>
          <h1>You are subscribed</h1>
          <p>
            Thank you. You will receive <strong>{topic.name}</strong> from {brand.name}.
          </p>
        </>
      )}
      {result.outcome === "already_confirmed" && (
        <>
          <h1>Already confirmed</h1>
          <p>
            Your subscription to <strong>{topic.name}</strong> was confirmed before. Nothing more to do.
          </p>
        </>
      )}
      {result.outcome === "not_pending" && (
        <>
          <h1>Nothing to confirm</h1>
          <p>
            This subscription to <strong>{topic.name}</strong> is no longer waiting for confirmation.
          </p>
        </>
      )}
      {result.outcome === "expired" && (
        <>
          <h1>This link has expired</h1>
          <p>
            Confirmation links work for 14 days. You can still sign up for <strong>{topic.name}</strong>: we will send
            you a new link.
          </p>
          {resent ? (
            <p role="status">A new confirmation email is on its way.</p>
          ) : (
            <form action={signUpAgainAction.bind(null, token)}>
              <button className="button" type="submit">
                Send me a new link
              </button>
            </form>
          )}
        </>
      )}
      <BrandFooter brand={brand} />
    </>
  );
}
