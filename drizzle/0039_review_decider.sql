ALTER TABLE "workspaces" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "self_reviewed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "self_reviewed" boolean DEFAULT false NOT NULL;