CREATE TABLE "audience_snapshot_parts" (
	"campaign_id" text COLLATE "C" NOT NULL,
	"part" integer NOT NULL,
	"from_contact_id" text COLLATE "C",
	"to_contact_id" text COLLATE "C",
	"recipients" integer,
	CONSTRAINT "audience_snapshot_parts_campaign_id_part_pk" PRIMARY KEY("campaign_id","part")
);
--> statement-breakpoint
DROP INDEX "sends_campaign_contact_key";--> statement-breakpoint
DROP INDEX "sends_campaign_state_idx";--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "send_id_prefix" text;--> statement-breakpoint
ALTER TABLE "audience_snapshot_parts" ADD CONSTRAINT "audience_snapshot_parts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_send_id_prefix_key" ON "campaigns" USING btree ("send_id_prefix");--> statement-breakpoint
CREATE INDEX "sends_campaign_failed_idx" ON "sends" USING btree ("campaign_id") WHERE "sends"."state" = 'failed';--> statement-breakpoint
-- Campaigns snapshotted before this migration: their send ids share one bulk prefix followed by an 8-hex row number.
UPDATE "campaigns" SET "send_id_prefix" = p.prefix
FROM (SELECT campaign_id, left(min(id), length(min(id)) - 8) AS prefix FROM "sends" GROUP BY campaign_id
      HAVING left(min(id), length(min(id)) - 8) = left(max(id), length(max(id)) - 8)) p
WHERE p.campaign_id = "campaigns"."id";
