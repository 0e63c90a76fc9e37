CREATE TABLE "contact_events" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"contact_id" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_events" ADD CONSTRAINT "contact_events_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_events_contact_name_idx" ON "contact_events" USING btree ("contact_id","name","occurred_at");--> statement-breakpoint
CREATE INDEX "contact_events_workspace_idx" ON "contact_events" USING btree ("workspace_id","id");