import type { MouseEvent } from "react";

import { contactListSearchParams, type ContactListQuery } from "@/lib/contacts/contact-list-query";

/** Where a query of the contact list lives: the page's path with the query in its search params. */
export function contactListHref(pathname: string, query: ContactListQuery): string {
  const params = contactListSearchParams(query).toString();
  return params ? `${pathname}?${params}` : pathname;
}

/** A link that also works without JavaScript; with it, the table changes in place. */
export function follow(go: () => void) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    go();
  };
}
