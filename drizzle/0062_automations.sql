CREATE TABLE "automation_entries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"automation_id" text COLLATE "C" NOT NULL,
	"version_id" text COLLATE "C" NOT NULL,
	"contact_id" text COLLATE "C",
	"status" text DEFAULT 'active' NOT NULL,
	"exit_reason" text,
	"step_index" integer DEFAULT 0 NOT NULL,
	"entered_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	CONSTRAINT "automation_entries_exit_reason" CHECK (("automation_entries"."status" = 'exited') = ("automation_entries"."exit_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "automation_sends" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"automation_id" text COLLATE "C" NOT NULL,
	"entry_id" text COLLATE "C" NOT NULL,
	"step_index" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"sent_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_versions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"automation_id" text COLLATE "C" NOT NULL,
	"number" integer NOT NULL,
	"steps" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"topic_id" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"trigger" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_entries" ADD CONSTRAINT "automation_entries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_entries" ADD CONSTRAINT "automation_entries_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_entries" ADD CONSTRAINT "automation_entries_version_id_automation_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."automation_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_entries" ADD CONSTRAINT "automation_entries_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD CONSTRAINT "automation_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD CONSTRAINT "automation_sends_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD CONSTRAINT "automation_sends_entry_id_automation_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."automation_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_versions" ADD CONSTRAINT "automation_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_versions" ADD CONSTRAINT "automation_versions_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_entries_contact_key" ON "automation_entries" USING btree ("automation_id","contact_id");--> statement-breakpoint
CREATE INDEX "automation_entries_figures_idx" ON "automation_entries" USING btree ("automation_id","status","step_index");--> statement-breakpoint
CREATE INDEX "automation_entries_contact_idx" ON "automation_entries" USING btree ("contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_sends_step_key" ON "automation_sends" USING btree ("entry_id","step_index");--> statement-breakpoint
CREATE INDEX "automation_sends_figures_idx" ON "automation_sends" USING btree ("automation_id","step_index");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_versions_number_key" ON "automation_versions" USING btree ("automation_id","number");--> statement-breakpoint
CREATE INDEX "automations_workspace_idx" ON "automations" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "automations_topic_idx" ON "automations" USING btree ("topic_id","trigger") WHERE "automations"."status" = 'active';