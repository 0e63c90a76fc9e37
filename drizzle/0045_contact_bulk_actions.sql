CREATE TABLE "contact_bulk_actions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"kind" text NOT NULL,
	"selection" jsonb NOT NULL,
	"list_id" text COLLATE "C",
	"topic_id" text COLLATE "C",
	"note" text,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer,
	"done" integer DEFAULT 0 NOT NULL,
	"after" text COLLATE "C",
	"made_by" text NOT NULL,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "contact_bulk_actions" ADD CONSTRAINT "contact_bulk_actions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_bulk_actions_workspace_idx" ON "contact_bulk_actions" USING btree ("workspace_id","id");