import type { Metadata } from "next";
import Link from "next/link";

import { v1Document } from "@/app/v1/v1-document";
import type { OpenApiDocument } from "@/components/api-reference/openapi-types";
import { MethodBadge, OperationSection } from "@/components/api-reference/operation-section";
import { Prose } from "@/components/api-reference/prose";
import { SchemaFields } from "@/components/api-reference/schema-fields";
import { ThemeToggle } from "@/components/ui/theme-toggle";

export const metadata: Metadata = { title: "API reference" };

const SECTIONS: Record<string, string> = {
  subscribe: "Subscribe",
  contacts: "Contacts",
  events: "Events",
  topics: "Topics",
  lists: "Lists",
  suppressions: "Suppressions",
  reports: "Reports",
};

const CONVENTIONS: [string, string][] = [
  [
    "Keys",
    "Send `Authorization: Bearer <key>`. Secret keys (`sk_live_…`, `sk_test_…`) are for servers; a publishable key (`pk_…`) may only call POST /v1/subscribe, from the origins it allows. Test keys act on the same data but never mail anyone and fire no webhooks. Create keys under API keys in the dashboard.",
  ],
  [
    "Errors",
    "Every error is `{ error: { type, code, message, param? } }`. Branch on `type`, match on `code`, never on `message`; `param` names the offending field. Retry 429 and 5xx with backoff (honour `Retry-After`); do not retry other 4xx.",
  ],
  [
    "Pagination",
    "Lists answer `{ data, meta }` newest first. `limit` is 1 to 100 (default 20); pass `meta.next_cursor` back as `cursor`, with the same filters, until it is null.",
  ],
  [
    "Limits",
    "Each key has a per-minute budget per bucket, stated on each endpoint; every answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`. Bodies are JSON objects of at most 1 MiB.",
  ],
  [
    "Request ids",
    "Every answer carries a `Request-Id`. Quote it when reporting a problem: the service's log lines name it.",
  ],
];

/** The API reference, rendered from the same OpenAPI document GET /v1/openapi.json serves. */
export default function ApiReferencePage() {
  const document = v1Document() as unknown as OpenApiDocument;
  const components = document.components.schemas;
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
  const sections = Object.entries(SECTIONS).map(([tag, title]) => ({
    tag,
    title,
    operations: operations.filter((o) => o.operation.tags?.includes(tag)),
  }));
  const webhooks = Object.entries(document.webhooks).map(([type, item]) => ({ type, operation: item.post! }));
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-6 py-8 lg:grid-cols-[14rem_1fr]">
      <nav
        aria-label="Reference"
        className="text-sm lg:sticky lg:top-8 lg:max-h-[calc(100vh-4rem)] lg:self-start lg:overflow-y-auto"
      >
        <p className="font-semibold">{document.info.title}</p>
        <p className="text-xs text-muted-foreground">Version {document.info.version}</p>
        {sections.map((section) => (
          <div key={section.tag} className="mt-4">
            <a href={`#${section.tag}`} className="font-medium hover:underline">
              {section.title}
            </a>
            <ul className="mt-1 grid gap-1">
              {section.operations.map(({ method, path, operation }) => (
                <li key={operation.operationId}>
                  <a
                    href={`#${operation.operationId}`}
                    className="flex items-baseline gap-1.5 text-muted-foreground hover:text-foreground"
                  >
                    <span className="w-12 font-mono text-[0.7rem] uppercase">{method}</span>
                    <span>{operation.summary}</span>
                  </a>
                  <span className="sr-only">{path}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <div className="mt-4">
          <a href="#webhooks" className="font-medium hover:underline">
            Webhooks
          </a>
        </div>
      </nav>

      <main className="min-w-0">
        <header className="flex items-start justify-between gap-4">
          <div className="min-w-0 flex-1">
            <h1 className="text-3xl font-semibold tracking-tight">API reference</h1>
            <p className="mt-2 max-w-2xl text-sm text-muted-foreground">
              <Prose text={document.info.description} />
            </p>
            <p className="mt-2 text-sm">
              <Link className="text-primary underline-offset-4 hover:underline" href="/v1/openapi.json">
                OpenAPI 3.1 document
              </Link>{" "}
              <span className="text-muted-foreground">· the examples use </span>
              <code className="font-mono text-xs">$BASE_URL</code>
              <span className="text-muted-foreground">
                , where this service answers (for example http://localhost:3000)
              </span>
            </p>
          </div>
          <ThemeToggle />
        </header>

        <dl className="mt-8 grid gap-4 sm:grid-cols-2">
          {CONVENTIONS.map(([title, text]) => (
            <div key={title} className="rounded-lg border p-4">
              <dt className="font-medium">{title}</dt>
              <dd className="mt-1 text-sm text-muted-foreground">
                <Prose text={text} />
              </dd>
            </div>
          ))}
        </dl>

        {sections.map((section) => (
          <section
            key={section.tag}
            id={section.tag}
            aria-labelledby={`${section.tag}-heading`}
            className="mt-12 scroll-mt-6"
          >
            <h2 id={`${section.tag}-heading`} className="text-2xl font-semibold tracking-tight">
              {section.title}
            </h2>
            <div className="mt-4 grid grid-cols-1 gap-8">
              {section.operations.map(({ method, path, operation }) => (
                <OperationSection
                  key={operation.operationId}
                  method={method}
                  path={path}
                  operation={operation}
                  components={components}
                />
              ))}
            </div>
          </section>
        ))}

        <section id="webhooks" aria-labelledby="webhooks-heading" className="mt-12 scroll-mt-6">
          <h2 id="webhooks-heading" className="text-2xl font-semibold tracking-tight">
            Webhooks
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">
            <Prose text="The service POSTs `{ id, type, created_at, data }` to each endpoint registered under Webhooks in the dashboard. Verify `X-Service-Signature: t=<ms>,v1=<hex>` first: recompute HMAC-SHA256 of `{t}.{raw body}` with the endpoint's signing secret over the bytes as received, compare in constant time, and refuse a `t` more than 5 minutes away (answer 401). Deduplicate on `id`: a delivery that got no 2xx within 10 seconds is retried, in order per contact or campaign." />
          </p>
          <div className="mt-4 grid grid-cols-1 gap-8">
            {webhooks.map(({ type, operation }) => (
              <section
                key={type}
                id={operation.operationId}
                aria-labelledby={`${operation.operationId}-title`}
                className="scroll-mt-6 border-t pt-6"
              >
                <div className="flex items-center gap-2">
                  <MethodBadge method="post" />
                  <h3 id={`${operation.operationId}-title`} className="font-mono text-base font-semibold">
                    {type}
                  </h3>
                </div>
                <p className="mt-2 text-sm text-muted-foreground">
                  <Prose text={operation.description!.split("\n\n")[0]!} />
                </p>
                <div className="mt-3">
                  <SchemaFields
                    schema={operation.requestBody!.content["application/json"].schema}
                    components={components}
                    answer
                  />
                </div>
              </section>
            ))}
          </div>
        </section>
      </main>
    </div>
  );
}
