import type { Metadata } from "next";

import { InvalidLink } from "@/components/invalid-link";
import { defaultCtx } from "@/lib/context";
import { describeVerifyAddressLink } from "@/lib/sandbox/verified-addresses";

import { confirmAddressAction } from "./actions";

export const metadata: Metadata = { title: "Confirm your address", robots: { index: false } };

/** Opening this page changes nothing (mail scanners open links); its button does. */
export default async function VerifyAddressPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ done?: string }>;
}) {
  const { token } = await params;
  const { done } = await searchParams;
  const link = await describeVerifyAddressLink(defaultCtx(), token);
  if (!link || done === "0") return <InvalidLink />;
  if (done === "1") {
    return (
      <>
        <h1>Address confirmed</h1>
        <p role="status">
          {link.workspaceName} may now send its campaigns to {link.email} while its account is being set up.
        </p>
      </>
    );
  }
  return (
    <form action={confirmAddressAction.bind(null, token)}>
      <h1>Confirm your address?</h1>
      <p>
        {link.workspaceName} asked to send its campaigns to {link.email} while its account is being set up. Confirm only
        if this is your address and you agree.
      </p>
      <button className="button" type="submit">
        Confirm {link.email}
      </button>
    </form>
  );
}
