ALTER TABLE "automation_sends" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "delivered_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "bounced_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "bounce_type" text;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "complained_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "automation_sends_provider_message_idx" ON "automation_sends" USING btree ("provider_message_id") WHERE "automation_sends"."provider_message_id" is not null;