import type { Metadata } from "next";

import { BrandFooter } from "@/components/brand-footer";
import { BrandLogo } from "@/components/brand-logo";
import { InvalidLink } from "@/components/invalid-link";
import { readUnsubscribeToken } from "@/lib/consent/links";
import { getUnsubscribeView } from "@/lib/consent/unsubscribe-view";
import { defaultCtx } from "@/lib/context";

import { resubscribeAction, unsubscribeAction } from "./actions";

export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };

/** Opening this page changes nothing (mail scanners open links); its buttons do. */
export default async function UnsubscribePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ done?: string }>;
}) {
  const { token } = await params;
  const { done } = await searchParams;
  const target = readUnsubscribeToken(token);
  const view = target ? await getUnsubscribeView(defaultCtx(), target) : null;
  if (!view) {
    return <InvalidLink />;
  }
  return (
    <>
      {view.brand.logoUrl && <BrandLogo src={view.brand.logoUrl} alt={view.brand.name} className="mb-4" />}
      <h1>
        {view.subscribed ? `Unsubscribe from ${view.topic.name}?` : `You are unsubscribed from ${view.topic.name}`}
      </h1>
      {done && (
        <p role="status">
          {done === "resubscribed"
            ? `Welcome back: ${view.email} is subscribed to ${view.topic.name} again.`
            : `${view.email} will no longer receive ${view.topic.name}.`}
        </p>
      )}
      {view.subscribed ? (
        <form action={unsubscribeAction.bind(null, token)}>
          <p>
            {view.email} receives {view.topic.name} from {view.brand.name}.
          </p>
          <button className="button" type="submit">
            Unsubscribe
          </button>
        </form>
      ) : (
        <form action={resubscribeAction.bind(null, token)}>
          <p>Changed your mind?</p>
          <button className="button secondary" type="submit">
            Resubscribe to {view.topic.name}
          </button>
        </form>
      )}
      <p>
        <a href={view.preferencesUrl}>Choose which emails you get from {view.brand.name}, or leave entirely</a>
      </p>
      <BrandFooter brand={view.brand} />
    </>
  );
}
