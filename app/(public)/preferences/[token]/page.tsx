import type { Metadata } from "next";

import { BrandFooter } from "@/components/brand-footer";
import { BrandLogo } from "@/components/brand-logo";
import { InvalidLink } from "@/components/invalid-link";
import { readPreferencesToken } from "@/lib/consent/links";
import { loadPreferences } from "@/lib/consent/preferences";
import { defaultCtx } from "@/lib/context";

import { savePreferencesAction } from "./actions";

export const metadata: Metadata = { title: "Email preferences", robots: { index: false } };

/** The preference centre: per topic, the whole brand, or everything. Opening it changes nothing. */
export default async function PreferencesPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ saved?: string }>;
}) {
  const { token } = await params;
  const { saved } = await searchParams;
  const link = readPreferencesToken(token);
  const preferences = link ? await loadPreferences(defaultCtx(), link.contactId, link.brandId) : null;
  if (!preferences) {
    return <InvalidLink />;
  }
  const save = savePreferencesAction.bind(null, token);
  const brand = preferences.brand.name;
  return (
    <>
      {preferences.brand.logoUrl && (
        <BrandLogo src={preferences.brand.logoUrl} alt={preferences.brand.name} className="mb-4" />
      )}
      <h1>Emails from {preferences.brand.name}</h1>
      <p>For {preferences.contact.email}</p>
      {saved && <p role="status">Your choices are saved.</p>}
      {preferences.optedOutOfAll && <p>You have unsubscribed from everything. Tick a topic to receive it again.</p>}
      <form action={save} className="form">
        <fieldset>
          <legend>Topics</legend>
          {preferences.topics.map((topic) => (
            <label key={topic.id} className="choice">
              <input type="checkbox" name="topic" value={topic.id} defaultChecked={topic.subscribed} /> {topic.name}
              {topic.description && <span className="muted"> — {topic.description}</span>}
            </label>
          ))}
        </fieldset>
        <button className="button" type="submit" name="intent" value="save">
          Save choices
        </button>
        <div className="grid gap-1">
          <button
            className="button secondary"
            type="submit"
            name="intent"
            value="leave-brand"
            aria-describedby="leave-brand-covers"
          >
            Unsubscribe from all {brand} topics
          </button>
          <p id="leave-brand-covers" className="muted my-0 text-sm">
            Stops every topic listed above. Nothing else changes.
          </p>
        </div>
        <div className="grid gap-1">
          <button
            className="button secondary"
            type="submit"
            name="intent"
            value="leave-all"
            aria-describedby="leave-all-covers"
          >
            Unsubscribe from everything
          </button>
          <p id="leave-all-covers" className="muted my-0 text-sm">
            Stops all email from this sender, not only {brand}&apos;s: topics it adds later too, and any other brand it
            sends for. No one can sign you up again but you, here.
          </p>
        </div>
      </form>
      <BrandFooter brand={preferences.brand} />
    </>
  );
}
