CREATE TABLE "contact_engagement" (
	"contact_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"last_engaged_at" timestamp (3) with time zone,
	"campaigns_since_engaged" integer DEFAULT 0 NOT NULL,
	"unengaged_since" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "sunset_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "sunset_after_campaigns" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "sunset_after_days" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "include_inactive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "machine" text;