CREATE TABLE "erased_contacts" (
	"workspace_id" text COLLATE "C" NOT NULL,
	"address_hash" "bytea" NOT NULL,
	"contact_id" text COLLATE "C" NOT NULL,
	"erased_by" text NOT NULL,
	"erased_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "erased_contacts_workspace_id_address_hash_pk" PRIMARY KEY("workspace_id","address_hash")
);
--> statement-breakpoint
CREATE INDEX "erased_contacts_contact_idx" ON "erased_contacts" USING btree ("workspace_id","contact_id");