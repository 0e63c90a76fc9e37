ALTER TABLE "campaigns" ADD COLUMN "resend_of" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "sends" ADD COLUMN "human_opened_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_resend_of_campaigns_id_fk" FOREIGN KEY ("resend_of") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_resend_of_key" ON "campaigns" USING btree ("resend_of");--> statement-breakpoint
-- The person's first open or click of each send so far, from the events that recorded them (a machine's are marked).
UPDATE "sends" SET "human_opened_at" = "first"."at"
FROM (
  SELECT "data"->>'send_id' AS "send_id", min("occurred_at") AS "at" FROM "events"
  WHERE "type" IN ('email.opened', 'email.clicked') AND "machine" IS NULL
  GROUP BY 1
) AS "first"
WHERE "sends"."id" = "first"."send_id";
