import { boolean, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";

import { apiKeys } from "./api-keys";
import { brands } from "./brands";
import { at, createdAt, id, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export const FIELD_MODES = ["off", "optional", "required"] as const;
export type FieldMode = (typeof FIELD_MODES)[number];

/** Which fields the form asks for; the email address is always asked and required. */
export interface SignupFormFields {
  firstName: FieldMode;
  lastName: FieldMode;
  attributes: { key: string; label: string; required: boolean }[];
}

export interface SignupFormTexts {
  title: string;
  description: string;
  button: string;
  /** Shown after a signup to a topic without confirmation. */
  success: string;
  /** Shown after a signup that needs the confirmation link. */
  checkInbox: string;
  consent: string;
  privacyUrl: string | null;
}

export interface SignupFormStyle {
  color: string;
  corners: "rounded" | "square";
  theme: "light" | "dark";
}

/**
 * A signup form a sender embeds on their own site. It subscribes to its
 * topics (all of one brand) through its publishable key, whose origin
 * allowlist, mode and brand lock apply to every submission.
 */
export const signupForms = pgTable(
  "signup_forms",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    brandId: id("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    topicIds: text("topic_ids").array().notNull(),
    apiKeyId: id("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    fields: jsonb("fields").$type<SignupFormFields>().notNull(),
    texts: jsonb("texts").$type<SignupFormTexts>().notNull(),
    style: jsonb("style").$type<SignupFormStyle>().notNull(),
    /** A proof-of-work challenge (ALTCHA) every submission must solve. */
    challenge: boolean("challenge").notNull().default(false),
    /** Where the plain HTML form sends the browser after a signup; null shows the hosted page. */
    redirectUrl: text("redirect_url"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("signup_forms_workspace_idx").on(t.workspaceId, t.id)],
);

/**
 * One accepted submission (bots refused or dropped are not recorded) and the
 * subscriptions it asked for: confirmations are those now subscribed.
 */
export const signupFormSubmissions = pgTable(
  "signup_form_submissions",
  {
    id: id("id").primaryKey(),
    workspaceId: id("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    formId: id("form_id")
      .notNull()
      .references(() => signupForms.id, { onDelete: "cascade" }),
    subscriptionIds: text("subscription_ids").array().notNull(),
    submittedAt: at("submitted_at").notNull(),
  },
  (t) => [index("signup_form_submissions_form_idx").on(t.formId)],
);

/** Solved challenges, kept until they expire so that one solution cannot be replayed. */
export const signupFormChallengeUses = pgTable("signup_form_challenge_uses", {
  signature: text("signature").primaryKey(),
  expiresAt: at("expires_at").notNull(),
});
