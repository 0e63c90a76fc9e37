CREATE TABLE "opt_outs_on_behalf" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"contact_id" text COLLATE "C" NOT NULL,
	"event_id" text COLLATE "C",
	"scope" text NOT NULL,
	"topic_id" text COLLATE "C",
	"made_by" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "opt_outs_on_behalf" ADD CONSTRAINT "opt_outs_on_behalf_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "opt_outs_on_behalf_contact_idx" ON "opt_outs_on_behalf" USING btree ("contact_id");