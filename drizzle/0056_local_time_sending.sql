ALTER TABLE "workspaces" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "local_date" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "local_time" text;--> statement-breakpoint
ALTER TABLE "sends" ADD COLUMN "due_at" timestamp (3) with time zone;