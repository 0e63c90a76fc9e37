CREATE TABLE "import_file_parts" (
	"import_id" text COLLATE "C" NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "import_file_parts_import_id_part_pk" PRIMARY KEY("import_id","part")
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"import_id" text COLLATE "C" NOT NULL,
	"row_number" integer NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"attributes" jsonb NOT NULL,
	"refusal" text,
	"detail" text,
	CONSTRAINT "import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"created_by" text COLLATE "C",
	"file_name" text NOT NULL,
	"byte_size" bigint NOT NULL,
	"encoding" text NOT NULL,
	"delimiter" text NOT NULL,
	"header" jsonb NOT NULL,
	"preview" jsonb NOT NULL,
	"row_count" integer NOT NULL,
	"status" text NOT NULL,
	"mapping" jsonb,
	"options" jsonb,
	"checked" jsonb,
	"applied" jsonb,
	"applied_through" integer DEFAULT 0 NOT NULL,
	"error" text,
	"checked_at" timestamp (3) with time zone,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_file_parts" ADD CONSTRAINT "import_file_parts_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_workspace_idx" ON "imports" USING btree ("workspace_id","id");