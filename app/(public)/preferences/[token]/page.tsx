import type { Metadata } from "next";
import { BrandFooter } from "@/components/brand-footer";
import { InvalidLink } from "@/components/invalid-link";
import { readPreferencesToken } from "@/lib/consent/links";
import { loadPreferences } from "@/lib/consent/preferences";
import { defaultCtx } from "@/lib/context";
import { savePreferencesAction } from "./actions";

export const metadata: Metadata = { title: "Email preferences", robots: { index: false } };

/** The preference centre: per topic, the whole brand, or everything. Opening it changes nothing. */
export default async function PreferencesPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<{ saved?: string }> }) {
  const { token } = await params;
  const { saved } = await searchParams;
  const link = readPreferencesToken(token);
  const preferences = link ? await loadPreferences(defaultCtx(), link.contactId, link.brandId) : null;
  if (!preferences) {
    return <InvalidLink />;
  }
  const save = savePreferencesAction.bind(null, token);
  return (
    <>
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
        <button className="button secondary" type="submit" name="intent" value="leave-brand">
          Unsubscribe from all {preferences.brand.name} emails
        </button>
        <button className="button secondary" type="submit" name="intent" value="leave-all">
          Unsubscribe from everything
        </button>
      </form>
      <BrandFooter brand={preferences.brand} />
    </>
  );
}
